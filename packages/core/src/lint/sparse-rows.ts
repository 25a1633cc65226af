import { embedTexts } from '../embedding/embed-texts.js';
import type { Embedder } from '../embedding/embedder.js';
import type { EmbeddingCache } from '../embedding/embedding-cache.js';
import type { SparseVector } from '../embedding/hashed-embedder.js';
import { TreeAgentError } from '../errors/tree-agent-error.js';

/**
 * Unit vectors as compressed sparse rows: row `r`'s non-zero entries are `indices[k]`, `values[k]`
 * for `k` in `[starts[r], starts[r + 1])`, indices ascending.
 */
export interface SparseRows {
  count: number;
  dimensions: number;
  starts: Uint32Array;
  indices: Uint32Array;
  values: Float32Array;
}

/** An embedder that can give a text's non-zero entries directly (`HashedEmbedder`). */
interface SparseEmbedder extends Embedder {
  embedSparse(text: string): SparseVector;
}

function isSparseEmbedder(embedder: Embedder): embedder is SparseEmbedder {
  return typeof (embedder as Partial<SparseEmbedder>).embedSparse === 'function';
}

/**
 * The unit vectors of `texts` as `embedTexts` gives them (the same values, bit for bit), in sparse
 * rows. An embedder with `embedSparse` and no cache is asked text by text for its non-zero entries,
 * so no dense vector is made; otherwise the texts go through `embedTexts` (and the cache), and
 * `dense` holds its vectors.
 */
export async function embedRows(
  embedder: Embedder,
  texts: readonly string[],
  cache?: EmbeddingCache,
): Promise<{ rows: SparseRows; dense: Float32Array[] | null }> {
  if (!cache && isSparseEmbedder(embedder)) {
    const byText = new Map<string, SparseVector>();
    const vectors = texts.map((text) => {
      let vector = byText.get(text);
      if (!vector) {
        vector = toUnitSparse(embedder.embedSparse(text), embedder.id);
        byText.set(text, vector);
      }
      return vector;
    });
    return { rows: packRows(vectors, embedder.dimensions ?? 0), dense: null };
  }
  const dense = texts.length ? await embedTexts(embedder, texts, cache) : [];
  return { rows: sparseRows(dense), dense };
}

/** `embedTexts`'s normalisation (non-finite values are an `EMBEDDER` error), on the non-zero entries. */
function toUnitSparse(vector: SparseVector, modelId: string): SparseVector {
  let norm = 0;
  for (let k = 0; k < vector.values.length; k++) {
    const value = vector.values[k]!;
    if (!Number.isFinite(value))
      throw new TreeAgentError('EMBEDDER', `Embedder "${modelId}" returned a vector with ${value}.`);
    norm += value * value;
  }
  if (!(norm > 0)) return vector;
  const scale = 1 / Math.sqrt(norm);
  const scaled = new Float32Array(vector.values.length);
  let nonZero = 0;
  for (let k = 0; k < scaled.length; k++) {
    scaled[k] = vector.values[k]! * scale;
    if (scaled[k] !== 0) nonZero++;
  }
  if (nonZero === scaled.length) return { indices: vector.indices, values: scaled };
  // A value that underflowed to zero is no longer an entry.
  const indices = new Uint32Array(nonZero);
  const values = new Float32Array(nonZero);
  let at = 0;
  for (let k = 0; k < scaled.length; k++) {
    if (scaled[k] === 0) continue;
    indices[at] = vector.indices[k]!;
    values[at++] = scaled[k]!;
  }
  return { indices, values };
}

function packRows(vectors: readonly SparseVector[], dimensions: number): SparseRows {
  const starts = new Uint32Array(vectors.length + 1);
  vectors.forEach((vector, row) => {
    starts[row + 1] = starts[row]! + vector.indices.length;
  });
  const total = starts[vectors.length]!;
  const indices = new Uint32Array(total);
  const values = new Float32Array(total);
  vectors.forEach((vector, row) => {
    indices.set(vector.indices, starts[row]!);
    values.set(vector.values, starts[row]!);
  });
  return { count: vectors.length, dimensions, starts, indices, values };
}

/** Dense vectors (all of one length) as sparse rows. */
export function sparseRows(vectors: readonly ArrayLike<number>[]): SparseRows {
  const dimensions = vectors[0]?.length ?? 0;
  const starts = new Uint32Array(vectors.length + 1);
  vectors.forEach((vector, row) => {
    let nonZero = 0;
    for (let j = 0; j < vector.length; j++) if (vector[j] !== 0) nonZero++;
    starts[row + 1] = starts[row]! + nonZero;
  });
  const indices = new Uint32Array(starts[vectors.length]!);
  const values = new Float32Array(starts[vectors.length]!);
  vectors.forEach((vector, row) => {
    let at = starts[row]!;
    for (let j = 0; j < vector.length; j++) {
      if (vector[j] === 0) continue;
      indices[at] = j;
      values[at++] = vector[j]!;
    }
  });
  return { count: vectors.length, dimensions, starts, indices, values };
}

/**
 * The dot product of rows `a` and `b`: the products of their common entries added in index order,
 * which is `dot` of the dense vectors to the last bit (the other products are zeros).
 */
export function rowDot(rows: SparseRows, a: number, b: number): number {
  const { starts, indices, values } = rows;
  let i = starts[a]!;
  let j = starts[b]!;
  const endI = starts[a + 1]!;
  const endJ = starts[b + 1]!;
  let sum = 0;
  while (i < endI && j < endJ) {
    const x = indices[i]!;
    const y = indices[j]!;
    if (x === y) sum += values[i++]! * values[j++]!;
    else if (x < y) i++;
    else j++;
  }
  return sum;
}
