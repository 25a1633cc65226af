import { describe, expect, test } from 'vitest';
import { ProtobufWriter } from './protobuf-writer.js';

describe('ProtobufWriter (the encodings of an ONNX model)', () => {
  test('writes varints as Protocol Buffers does: 150 in field 1 is 08 96 01', () => {
    expect([...new ProtobufWriter().int(1, 150).bytes()]).toEqual([0x08, 0x96, 0x01]);
  });

  test("a negative int64 takes ten bytes, its two's complement", () => {
    expect([...new ProtobufWriter().int(3, -1).bytes()]).toEqual([0x18, ...Array(9).fill(0xff), 0x01]);
  });

  test('an embedded message is its length, then its bytes: field 2 holding "testing" in field 1', () => {
    const inner = new ProtobufWriter().string(1, 'testing');
    const bytes = new ProtobufWriter().message(2, inner).bytes();
    expect([...bytes]).toEqual([0x12, 0x09, 0x0a, 0x07, ...new TextEncoder().encode('testing')]);
  });

  test('large payloads and small fields interleave in order, and floats are little-endian', () => {
    const payload = Uint8Array.from({ length: 300 }, (_, index) => index % 251);
    const bytes = new ProtobufWriter().int(1, 1).raw(9, payload).float(2, 1).bytes();
    // key 08 01, key 4a, length 300 = ac 02, the payload, key 15, 1.0f = 00 00 80 3f
    expect([...bytes.subarray(0, 5)]).toEqual([0x08, 0x01, 0x4a, 0xac, 0x02]);
    expect(bytes.subarray(5, 305)).toEqual(payload);
    expect([...bytes.subarray(305)]).toEqual([0x15, 0x00, 0x00, 0x80, 0x3f]);
  });
});
