import { loadavg } from 'node:os';
import { embedTexts } from '../../packages/core/src/embedding/embed-texts.js';
import { ChunkIndex } from '../../packages/core/src/explore/chunk-index.js';
import { HashedEmbedder } from '../../packages/core/src/index.js';
import { clincTree, loadClinc150 } from './clinc150.js';

/**
 * One exact pass of a direction over the sparse (hashed n-gram) block of a large tree: the index's
 * pass, from each column's postings (its non-zero chunks), against the pass it replaced in the same
 * run — every chunk of each of the direction's columns, four columns per sweep, written out here
 * over the index's own columns — with a check that both give the same floats, bit for bit. The
 * tree: CLINC150 `train` (`--per-intent`, 15,000 chunks by default) on the hashed embedder; the
 * directions: `val` messages.
 *
 * CLINC150_DIR=/path/to/clinc150 nice npx tsx bench/routing/sparse-pass.ts [--per-intent=100]
 */
const PER_INTENT = Number(
  process.argv.find((arg) => arg.startsWith('--per-intent='))?.slice('--per-intent='.length) ?? '100',
);
const data = loadClinc150();
const tree = clincTree(data, { perIntent: PER_INTENT, threshold: null });
const embedder = new HashedEmbedder();
const index = await ChunkIndex.build(tree, embedder);
const directions = await embedTexts(embedder, data.val.map(([text]) => text).slice(0, 300));
const count = tree.chunks.length;
const slotOf = new Int32Array(index.dimensions).fill(-1);
index.sparseDimensions.forEach((j, slot) => {
  slotOf[j] = slot;
});

/** The pass before postings: every chunk of the direction's columns, four per sweep. */
function columnPass(direction: Float32Array, out: Float32Array): void {
  out.fill(0);
  const columns = index.columns;
  const slots: number[] = [];
  const weights: number[] = [];
  for (let j = 0; j < direction.length; j++)
    if (slotOf[j]! >= 0 && direction[j] !== 0) {
      slots.push(slotOf[j]!);
      weights.push(direction[j]!);
    }
  let k = 0;
  for (; k + 4 <= slots.length; k += 4) {
    const [w0, w1, w2, w3] = [weights[k]!, weights[k + 1]!, weights[k + 2]!, weights[k + 3]!];
    const [b0, b1, b2, b3] = [
      slots[k]! * count,
      slots[k + 1]! * count,
      slots[k + 2]! * count,
      slots[k + 3]! * count,
    ];
    for (let row = 0; row < count; row++)
      out[row]! +=
        w0 * columns[b0 + row]! + w1 * columns[b1 + row]! + w2 * columns[b2 + row]! + w3 * columns[b3 + row]!;
  }
  for (; k < slots.length; k++) {
    const weight = weights[k]!;
    const base = slots[k]! * count;
    for (let row = 0; row < count; row++) out[row]! += weight * columns[base + row]!;
  }
}

const ours = new Float32Array(count);
const theirs = new Float32Array(count);
let differing = 0;
for (const direction of directions) {
  index.similarities(direction, 0, count, ours);
  columnPass(direction, theirs);
  const a = new Uint32Array(ours.buffer);
  const b = new Uint32Array(theirs.buffer);
  for (let i = 0; i < count; i++) if (a[i] !== b[i]) differing++;
}
function time(pass: (direction: Float32Array) => void): number {
  const rounds: number[] = [];
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    for (const direction of directions) pass(direction);
    rounds.push((performance.now() - started) / directions.length);
  }
  return rounds.sort((x, y) => x - y)[2]!;
}
const postings = time((direction) => index.similarities(direction, 0, count, ours));
const columns = time((direction) => columnPass(direction, theirs));
console.log(
  `${new Date().toISOString()} ${count} chunks, ${index.layout} layout, ${directions.length} val messages; load average ${loadavg()[0]!.toFixed(1)}`,
);
console.log(
  `one pass, median of 5 rounds: postings ${postings.toFixed(3)} ms, every chunk of each column ${columns.toFixed(3)} ms (${(columns / postings).toFixed(2)}× faster); floats differing: ${differing}`,
);
process.exit(0);
