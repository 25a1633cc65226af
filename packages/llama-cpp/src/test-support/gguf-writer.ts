import { writeFile } from 'node:fs/promises';

/**
 * A minimal GGUF v3 writer (little endian, F32 tensors only), enough to build tiny test models.
 * Layout, as read by llama.cpp and by node-llama-cpp's parser (`dist/gguf/parser/GgufV2Parser.js`):
 *
 *   "GGUF" | u32 version | u64 tensor count | u64 metadata count
 *   metadata: (string key, u32 value type, value)*
 *   tensor infos: (string name, u32 n_dims, u64 dims[n_dims] innermost first, u32 ggml type, u64 offset)*
 *   zero padding to `general.alignment` (32), then the tensor data, each tensor at an aligned offset.
 *
 * Strings are a u64 byte length followed by UTF-8 bytes (no terminator).
 */

/** GGUF metadata value types (`GgufValueType` in node-llama-cpp, `gguf_type` in ggml). */
const GGUF_TYPE = {
  uint8: 0,
  int8: 1,
  uint16: 2,
  int16: 3,
  uint32: 4,
  int32: 5,
  float32: 6,
  bool: 7,
  string: 8,
  array: 9,
  uint64: 10,
  int64: 11,
  float64: 12,
} as const;

/** `ggml_type` of an F32 tensor. */
const GGML_TYPE_F32 = 0;

export const GGUF_ALIGNMENT = 32;

export type GgufValue =
  | { type: 'uint32'; value: number }
  | { type: 'int32'; value: number }
  | { type: 'uint64'; value: bigint }
  | { type: 'float32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'string[]'; value: readonly string[] }
  | { type: 'float32[]'; value: readonly number[] }
  | { type: 'int32[]'; value: readonly number[] };

export interface GgufTensor {
  name: string;
  /** GGUF dimension order: `dims[0]` is the contiguous (innermost) one, e.g. `[n_embd, n_vocab]` for `token_embd.weight`. */
  dims: readonly number[];
  data: Float32Array;
}

export interface GgufContent {
  metadata: ReadonlyArray<readonly [key: string, value: GgufValue]>;
  tensors: readonly GgufTensor[];
}

class ByteWriter {
  #buffer = Buffer.alloc(1024);
  #length = 0;

  get length(): number {
    return this.#length;
  }

  #reserve(bytes: number): void {
    if (this.#length + bytes <= this.#buffer.length) return;
    let size = this.#buffer.length * 2;
    while (size < this.#length + bytes) size *= 2;
    const next = Buffer.alloc(size);
    this.#buffer.copy(next, 0, 0, this.#length);
    this.#buffer = next;
  }

  u32(value: number): void {
    this.#reserve(4);
    this.#buffer.writeUInt32LE(value, this.#length);
    this.#length += 4;
  }

  i32(value: number): void {
    this.#reserve(4);
    this.#buffer.writeInt32LE(value, this.#length);
    this.#length += 4;
  }

  u64(value: bigint | number): void {
    this.#reserve(8);
    this.#buffer.writeBigUInt64LE(BigInt(value), this.#length);
    this.#length += 8;
  }

  f32(value: number): void {
    this.#reserve(4);
    this.#buffer.writeFloatLE(value, this.#length);
    this.#length += 4;
  }

  u8(value: number): void {
    this.#reserve(1);
    this.#buffer.writeUInt8(value, this.#length);
    this.#length += 1;
  }

  bytes(value: Uint8Array): void {
    this.#reserve(value.length);
    this.#buffer.set(value, this.#length);
    this.#length += value.length;
  }

  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.bytes(bytes);
  }

  padTo(alignment: number): void {
    const padding = (alignment - (this.#length % alignment)) % alignment;
    this.bytes(new Uint8Array(padding));
  }

  toBuffer(): Buffer {
    return this.#buffer.subarray(0, this.#length);
  }
}

function writeValue(out: ByteWriter, value: GgufValue): void {
  switch (value.type) {
    case 'uint32':
      out.u32(GGUF_TYPE.uint32);
      out.u32(value.value);
      return;
    case 'int32':
      out.u32(GGUF_TYPE.int32);
      out.i32(value.value);
      return;
    case 'uint64':
      out.u32(GGUF_TYPE.uint64);
      out.u64(value.value);
      return;
    case 'float32':
      out.u32(GGUF_TYPE.float32);
      out.f32(value.value);
      return;
    case 'bool':
      out.u32(GGUF_TYPE.bool);
      out.u8(value.value ? 1 : 0);
      return;
    case 'string':
      out.u32(GGUF_TYPE.string);
      out.string(value.value);
      return;
    case 'string[]':
      out.u32(GGUF_TYPE.array);
      out.u32(GGUF_TYPE.string);
      out.u64(value.value.length);
      for (const item of value.value) out.string(item);
      return;
    case 'float32[]':
      out.u32(GGUF_TYPE.array);
      out.u32(GGUF_TYPE.float32);
      out.u64(value.value.length);
      for (const item of value.value) out.f32(item);
      return;
    case 'int32[]':
      out.u32(GGUF_TYPE.array);
      out.u32(GGUF_TYPE.int32);
      out.u64(value.value.length);
      for (const item of value.value) out.i32(item);
      return;
  }
}

/** Serializes a GGUF v3 file. Tensors are F32; their element count must match `dims`. */
export function encodeGguf(content: GgufContent): Buffer {
  const out = new ByteWriter();
  out.bytes(Buffer.from('GGUF', 'ascii'));
  out.u32(3);
  out.u64(content.tensors.length);
  out.u64(content.metadata.length);
  for (const [key, value] of content.metadata) {
    out.string(key);
    writeValue(out, value);
  }

  let offset = 0;
  const offsets: number[] = [];
  for (const tensor of content.tensors) {
    const elements = tensor.dims.reduce((product, dim) => product * dim, 1);
    if (elements !== tensor.data.length)
      throw new Error(
        `Tensor ${tensor.name}: dims [${tensor.dims.join(', ')}] hold ${elements} values, data has ${tensor.data.length}`,
      );
    offsets.push(offset);
    offset += tensor.data.byteLength;
    offset += (GGUF_ALIGNMENT - (offset % GGUF_ALIGNMENT)) % GGUF_ALIGNMENT;
  }
  content.tensors.forEach((tensor, index) => {
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const dim of tensor.dims) out.u64(dim);
    out.u32(GGML_TYPE_F32);
    out.u64(offsets[index]!);
  });

  out.padTo(GGUF_ALIGNMENT);
  const dataStart = out.length;
  content.tensors.forEach((tensor, index) => {
    out.bytes(new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    out.padTo(GGUF_ALIGNMENT);
    if (index + 1 < content.tensors.length && out.length - dataStart !== offsets[index + 1])
      throw new Error(`GGUF writer bug: tensor ${index + 1} is not at its announced offset`);
  });
  return out.toBuffer();
}

export async function writeGguf(path: string, content: GgufContent): Promise<void> {
  await writeFile(path, encodeGguf(content));
}
