/**
 * The few Protocol Buffers encodings an ONNX model needs (varints, 32-bit floats, length-delimited
 * fields), written into chunks: large payloads (a weight's bytes) are kept as they are, not copied
 * byte by byte, and joined once by `bytes()`.
 */
export class ProtobufWriter {
  readonly #chunks: Uint8Array[] = [];
  #pending: number[] = [];
  #length = 0;

  /** A varint field (wire type 0): integers, enums, booleans. */
  int(field: number, value: number | bigint): this {
    return this.#key(field, 0).#varint(value);
  }

  /** A 32-bit float field (wire type 5). */
  float(field: number, value: number): this {
    this.#key(field, 5);
    this.#pushBytes(new Uint8Array(new Float32Array([value]).buffer));
    return this;
  }

  /** A UTF-8 string field (wire type 2). */
  string(field: number, value: string): this {
    return this.raw(field, new TextEncoder().encode(value));
  }

  /** A length-delimited field holding `value`'s bytes as they are (wire type 2). */
  raw(field: number, value: Uint8Array): this {
    this.#key(field, 2).#varint(value.byteLength);
    this.#pushBytes(value);
    return this;
  }

  /** An embedded message field (wire type 2). */
  message(field: number, value: ProtobufWriter): this {
    this.#key(field, 2).#varint(value.byteLength);
    this.#flush();
    this.#chunks.push(...value.#chunksFlushed());
    this.#length += value.byteLength;
    return this;
  }

  get byteLength(): number {
    return this.#length + this.#pending.length;
  }

  /** The message's bytes, in one buffer. */
  bytes(): Uint8Array {
    const out = new Uint8Array(this.byteLength);
    let offset = 0;
    for (const chunk of this.#chunksFlushed()) {
      out.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return out;
  }

  #key(field: number, wireType: number): this {
    return this.#varint((field << 3) | wireType);
  }

  #varint(value: number | bigint): this {
    // Negative int64 values take ten bytes, as their two's complement.
    let rest = BigInt.asUintN(64, BigInt(value));
    while (rest >= 0x80n) {
      this.#pending.push(Number(rest & 0x7fn) | 0x80);
      rest >>= 7n;
    }
    this.#pending.push(Number(rest));
    return this;
  }

  #pushBytes(bytes: Uint8Array): void {
    if (bytes.byteLength < 64) {
      for (const byte of bytes) this.#pending.push(byte);
      return;
    }
    this.#flush();
    this.#chunks.push(bytes);
    this.#length += bytes.byteLength;
  }

  #flush(): void {
    if (!this.#pending.length) return;
    this.#chunks.push(Uint8Array.from(this.#pending));
    this.#length += this.#pending.length;
    this.#pending = [];
  }

  #chunksFlushed(): readonly Uint8Array[] {
    this.#flush();
    return this.#chunks;
  }
}
