import { endianness } from 'node:os';

const LITTLE_ENDIAN = endianness() === 'LE';

/** A vector as a BLOB of little-endian float32 values (a copy). */
export function vectorToBlob(vector: ArrayLike<number>): Buffer {
  const buffer = Buffer.allocUnsafe(vector.length * 4);
  if (LITTLE_ENDIAN && vector instanceof Float32Array) {
    buffer.set(new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength));
  } else {
    for (let i = 0; i < vector.length; i++) buffer.writeFloatLE(vector[i]!, i * 4);
  }
  return buffer;
}

/** The vector stored in a BLOB written by `vectorToBlob` (a copy, safely aligned). */
export function blobToVector(blob: Uint8Array): Float32Array {
  if (blob.byteLength % 4 !== 0) {
    throw new Error(`a stored vector has ${blob.byteLength} bytes, not a multiple of 4 (float32)`);
  }
  const vector = new Float32Array(blob.byteLength / 4);
  if (LITTLE_ENDIAN) {
    new Uint8Array(vector.buffer).set(blob);
  } else {
    const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
    for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
  }
  return vector;
}
