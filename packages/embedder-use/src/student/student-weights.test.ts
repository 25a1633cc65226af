import { describe, expect, test } from 'vitest';
import type { StudentNetwork } from './student-network.js';
import { decodeStudentWeights, encodeStudentWeights, type StudentHeader } from './student-weights.js';

const header: StudentHeader = {
  embedding: 3,
  hidden: 2,
  output: 4,
  rows: 5,
  bigramBuckets: 1,
  charBuckets: 1,
  vocabulary: ['a', 'b', 'c'],
  training: { id: 'test' },
};
const values = (count: number, seed: number) =>
  Float32Array.from({ length: count }, (_, i) => Math.sin(seed + i * 1.7));
const network: StudentNetwork = {
  embedding: 3,
  hidden: 2,
  output: 4,
  table: values(15, 1),
  w1: values(6, 2),
  b1: values(2, 3),
  w2: values(8, 4),
  b2: values(4, 5),
};

describe('the student weights file', () => {
  test('round-trips: the rows within int8 rounding of their scale, the dense layers exactly', () => {
    const decoded = decodeStudentWeights(encodeStudentWeights(header, network));
    expect(decoded.header).toEqual(header);
    expect([...decoded.space.vocabulary]).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 2],
    ]);
    for (let i = 0; i < network.table.length; i++)
      expect(Math.abs(decoded.network.table[i]! - network.table[i]!)).toBeLessThanOrEqual(1 / 127 / 2 + 1e-6);
    expect(decoded.network.w1).toEqual(network.w1);
    expect(decoded.network.b2).toEqual(network.b2);
  });

  test("a Node Buffer that is a view into a larger pool (as readFileSync's can be) decodes the same", () => {
    const bytes = encodeStudentWeights(header, network);
    const pooled = Buffer.concat([Buffer.from('xyz'), Buffer.from(bytes)]).subarray(3);
    expect(pooled.byteOffset).toBeGreaterThan(0);
    const decoded = decodeStudentWeights(pooled);
    expect(decoded.network.w2).toEqual(network.w2);
    expect(decoded.network.table).toEqual(decodeStudentWeights(bytes).network.table);
  });

  test('a truncated file or another file says so', () => {
    const bytes = encodeStudentWeights(header, network);
    expect(() => decodeStudentWeights(bytes.subarray(0, bytes.length - 4))).toThrow(/truncated or damaged/);
    expect(() => decodeStudentWeights(new TextEncoder().encode('GGUF and more'))).toThrow(
      /not a USE-lite student weights file/,
    );
  });
});
