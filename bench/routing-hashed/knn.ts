/**
 * Exact cosine 1-nearest-neighbour over unit vectors, using an inverted index on the non-zero
 * dimensions (hashed vectors are sparse), so a full CLINC150 pass takes about a second.
 */
export interface SparseIndex {
  size: number;
  offsets: Int32Array;
  ids: Int32Array;
  values: Float32Array;
}

export function buildIndex(vectors: readonly Float32Array[], dimensions: number): SparseIndex {
  const offsets = new Int32Array(dimensions + 1);
  for (const v of vectors) for (let d = 0; d < dimensions; d++) if (v[d] !== 0) offsets[d + 1]!++;
  for (let d = 0; d < dimensions; d++) offsets[d + 1]! += offsets[d]!;
  const cursor = offsets.slice(0, dimensions);
  const ids = new Int32Array(offsets[dimensions]!);
  const values = new Float32Array(offsets[dimensions]!);
  vectors.forEach((v, id) => {
    for (let d = 0; d < dimensions; d++) {
      if (v[d] === 0) continue;
      const at = cursor[d]!++;
      ids[at] = id;
      values[at] = v[d]!;
    }
  });
  return { size: vectors.length, offsets, ids, values };
}

export interface Neighbour {
  index: number;
  similarity: number;
}

/** Best match of each query (the first on ties); similarity 0 and index -1 for a zero query. */
export function nearest(index: SparseIndex, queries: readonly Float32Array[]): Neighbour[] {
  const { offsets, ids, values } = index;
  const scores = new Float64Array(index.size);
  return queries.map((q) => {
    scores.fill(0);
    let any = false;
    for (let d = 0; d < q.length; d++) {
      const w = q[d]!;
      if (w === 0) continue;
      any = true;
      for (let p = offsets[d]!, end = offsets[d + 1]!; p < end; p++) scores[ids[p]!]! += w * values[p]!;
    }
    if (!any) return { index: -1, similarity: 0 };
    let best = 0;
    for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[best]!) best = i;
    return { index: best, similarity: scores[best]! };
  });
}
