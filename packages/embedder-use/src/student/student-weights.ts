import type { FeatureSpace } from './student-features.js';
import type { StudentNetwork } from './student-network.js';

/**
 * The student's weights file (`weights/use-student.bin`): the magic `TAUSTU01`, a uint32 (little
 * endian) length and a JSON header (sizes, vocabulary, how it was trained), then, 4-byte aligned:
 * a float32 scale per embedding row, the rows as int8 (value = int8 × scale), and the dense layers
 * as float32 (W1, b1, W2, b2).
 */
export const STUDENT_MAGIC = 'TAUSTU01';

export interface StudentHeader {
  embedding: number;
  hidden: number;
  output: number;
  rows: number;
  bigramBuckets: number;
  charBuckets: number;
  vocabulary: string[];
  /** What it was trained on and how (for the README and `describe`), free form. */
  training: Record<string, unknown>;
}

export interface StudentWeights {
  header: StudentHeader;
  space: FeatureSpace;
  network: StudentNetwork;
}

const align = (offset: number) => (offset + 3) & ~3;

/** W1, b1, W2, b2 (without a hidden layer, W2 is output × embedding). */
const denseFloats = ({ embedding, hidden, output }: StudentHeader) =>
  hidden * embedding + hidden + output * (hidden || embedding) + output;

export function decodeStudentWeights(bytes: Uint8Array): StudentWeights {
  const magic = new TextDecoder().decode(bytes.subarray(0, 8));
  if (magic !== STUDENT_MAGIC)
    throw new Error(
      `not a USE-lite student weights file (it starts with ${JSON.stringify(magic)}, not "${STUDENT_MAGIC}")`,
    );
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.getUint32(8, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + headerLength))) as StudentHeader;
  const { rows, embedding, hidden, output } = header;
  // Copied to an aligned buffer of its own: the file's bytes may sit at any offset of a Node buffer.
  const body = new Uint8Array(bytes.subarray(align(12 + headerLength)));
  const expected = align(rows * 4 + rows * embedding) + 4 * denseFloats(header);
  if (body.byteLength !== expected)
    throw new Error(
      `the weights file is ${body.byteLength} bytes after its header, not ${expected}: it is truncated or damaged`,
    );
  let at = 0;
  const floats = (count: number) => {
    const out = new Float32Array(body.buffer, at, count);
    at += count * 4;
    return out;
  };
  const scales = floats(rows);
  const quantized = new Int8Array(body.buffer, at, rows * embedding);
  at = align(at + rows * embedding);
  const table = new Float32Array(rows * embedding);
  for (let row = 0; row < rows; row++) {
    const scale = scales[row]!;
    for (let d = 0; d < embedding; d++) table[row * embedding + d] = quantized[row * embedding + d]! * scale;
  }
  const network: StudentNetwork = {
    embedding,
    hidden,
    output,
    table,
    w1: floats(hidden * embedding),
    b1: floats(hidden),
    w2: floats(output * (hidden || embedding)),
    b2: floats(output),
  };
  const vocabulary = new Map(header.vocabulary.map((word, index) => [word, index] as const));
  return {
    header,
    space: { vocabulary, bigramBuckets: header.bigramBuckets, charBuckets: header.charBuckets },
    network,
  };
}

/** Quantizes the embedding rows (int8, a scale per row) and writes the file's bytes. */
export function encodeStudentWeights(header: StudentHeader, network: StudentNetwork): Uint8Array {
  const { rows, embedding } = header;
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const start = align(12 + headerBytes.length);
  const tableBytes = align(rows * 4 + rows * embedding);
  const out = new Uint8Array(start + tableBytes + 4 * denseFloats(header));
  out.set(new TextEncoder().encode(STUDENT_MAGIC), 0);
  const view = new DataView(out.buffer);
  view.setUint32(8, headerBytes.length, true);
  out.set(headerBytes, 12);
  const scales = new Float32Array(out.buffer, start, rows);
  const quantized = new Int8Array(out.buffer, start + rows * 4, rows * embedding);
  for (let row = 0; row < rows; row++) {
    let max = 0;
    for (let d = 0; d < embedding; d++) max = Math.max(max, Math.abs(network.table[row * embedding + d]!));
    const scale = max / 127 || 1;
    scales[row] = scale;
    for (let d = 0; d < embedding; d++)
      quantized[row * embedding + d] = Math.round(network.table[row * embedding + d]! / scale);
  }
  let at = start + tableBytes;
  for (const part of [network.w1, network.b1, network.w2, network.b2]) {
    new Float32Array(out.buffer, at, part.length).set(part);
    at += part.length * 4;
  }
  return out;
}
