import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { embedTexts } from '../embedding/embed-texts.js';
import { HashedEmbedder } from '../embedding/hashed-embedder.js';
import { defineTree } from '../tree/define-tree.js';
import type { NodeDefinition } from '../tree/node-definition.js';
import { ChunkIndex } from './chunk-index.js';

/**
 * The sparse block scored from its postings (each column's non-zero chunks) gives what a pass over
 * every chunk of each column gives, to the last bit: the direction's dimensions ascending, in groups
 * of four whose products are added in double precision and then to the chunk's float, the rest one
 * by one. The reference below is that pass, written out over the chunks' own vectors.
 */
function reference(vectors: Float32Array[], direction: Float32Array, from: number, to: number): Float32Array {
  const out = new Float32Array(vectors.length);
  const dims: number[] = [];
  for (let j = 0; j < direction.length; j++) if (direction[j] !== 0) dims.push(j);
  const grouped = dims.length - (dims.length % 4);
  for (let k = 0; k < grouped; k += 4) {
    const [j0, j1, j2, j3] = [dims[k]!, dims[k + 1]!, dims[k + 2]!, dims[k + 3]!];
    for (let row = from; row < to; row++) {
      const v = vectors[row]!;
      out[row]! +=
        direction[j0]! * v[j0]! + direction[j1]! * v[j1]! + direction[j2]! * v[j2]! + direction[j3]! * v[j3]!;
    }
  }
  for (let k = grouped; k < dims.length; k++) {
    const j = dims[k]!;
    for (let row = from; row < to; row++) out[row]! += direction[j]! * vectors[row]![j]!;
  }
  return out;
}

const words = [
  'reso',
  'ordine',
  'bike',
  'casco',
  'pedale',
  'spedizione',
  'prezzo',
  'orari',
  'negozio',
  'ruota',
];
const treeArb = fc
  .array(
    fc.array(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 6 }), {
      minLength: 1,
      maxLength: 8,
    }),
    {
      minLength: 1,
      maxLength: 6,
    },
  )
  .map((leaves) => {
    const nodes: NodeDefinition[] = [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
    ];
    leaves.forEach((chunks, i) => {
      nodes.push({ id: 10 + i, type: 'empty', parent: 2, chunks: chunks.map((w) => w.join(' ')) });
    });
    return defineTree({ nodes });
  });

describe('the sparse block from its postings', () => {
  test('equals the pass over every chunk, bit for bit, on any range and direction', async () => {
    await fc.assert(
      fc.asyncProperty(
        treeArb,
        fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 9 }),
        fc.nat(),
        fc.nat(),
        async (tree, query, a, b) => {
          const embedder = new HashedEmbedder();
          const index = await ChunkIndex.build(tree, embedder, undefined, { layout: 'columns' });
          const vectors = await embedTexts(
            embedder,
            tree.chunks.map((chunk) => chunk.text),
          );
          const [direction] = await embedTexts(embedder, [query.join(' ')]);
          const count = vectors.length;
          const from = Math.min(a % count, b % count);
          const to = Math.max(a % count, b % count) + 1;
          const actual = index.similarities(direction!, from, to).subarray(from, to);
          const expected = reference(vectors, direction!, from, to).subarray(from, to);
          expect(new Uint32Array(actual.slice().buffer)).toEqual(new Uint32Array(expected.slice().buffer));
        },
      ),
      { numRuns: 120, seed: 11 },
    );
  });
});
