import { embedTexts } from '../embedding/embed-texts.js';
import type { Embedder } from '../embedding/embedder.js';
import type { EmbeddingCache } from '../embedding/embedding-cache.js';
import type { ChunkId } from '../tree/chunk.js';
import type { Tree } from '../tree/tree.js';

/**
 * The vectors of every chunk of a tree, unit length, in one contiguous matrix stored dimension by
 * dimension (column `j` holds the `j`-th coordinate of every chunk, in the tree's depth-first chunk
 * order). One pass gives the similarity of a direction to every chunk, reading only the columns where
 * the direction is not zero — most of them for sparse embedders such as the hashed n-grams; each
 * exploration hop then reads only the resulting array.
 */
export class ChunkIndex {
  readonly tree: Tree;
  readonly dimensions: number;
  /** `dimensions × chunks` coordinates of the unit vectors, dimension-major. */
  readonly columns: Float32Array;
  readonly #positionById: Map<string, number>;

  private constructor(tree: Tree, dimensions: number, columns: Float32Array) {
    this.tree = tree;
    this.dimensions = dimensions;
    this.columns = columns;
    this.#positionById = new Map(tree.chunks.map((chunk, position) => [chunkKey(chunk.id), position]));
  }

  /** Embeds the tree's chunks (through the cache) and packs them. */
  static async build(tree: Tree, embedder: Embedder, cache?: EmbeddingCache): Promise<ChunkIndex> {
    const vectors = tree.chunks.length
      ? await embedTexts(
          embedder,
          tree.chunks.map((chunk) => chunk.text),
          cache,
        )
      : [];
    const dimensions = vectors[0]?.length ?? embedder.dimensions ?? 0;
    const count = vectors.length;
    const columns = new Float32Array(count * dimensions);
    vectors.forEach((vector, row) => {
      for (let j = 0; j < dimensions; j++) columns[j * count + row] = vector[j]!;
    });
    return new ChunkIndex(tree, dimensions, columns);
  }

  /**
   * Cosine similarity of a unit `direction` to every chunk, in chunk order. The non-zero coordinates
   * of the direction are taken four at a time, so each sweep over the output array adds four
   * columns: the pass runs close to the speed of reading the columns from memory.
   */
  similarities(direction: Float32Array): Float32Array {
    const { dimensions, columns } = this;
    const count = this.tree.chunks.length;
    const out = new Float32Array(count);
    if (direction.length !== dimensions) return out;
    const used: number[] = [];
    for (let j = 0; j < dimensions; j++) if (direction[j] !== 0) used.push(j);
    let k = 0;
    for (; k + 4 <= used.length; k += 4) {
      const j0 = used[k]!;
      const j1 = used[k + 1]!;
      const j2 = used[k + 2]!;
      const j3 = used[k + 3]!;
      const w0 = direction[j0]!;
      const w1 = direction[j1]!;
      const w2 = direction[j2]!;
      const w3 = direction[j3]!;
      const b0 = j0 * count;
      const b1 = j1 * count;
      const b2 = j2 * count;
      const b3 = j3 * count;
      for (let row = 0; row < count; row++) {
        out[row]! +=
          w0 * columns[b0 + row]! +
          w1 * columns[b1 + row]! +
          w2 * columns[b2 + row]! +
          w3 * columns[b3 + row]!;
      }
    }
    for (; k < used.length; k++) {
      const j = used[k]!;
      const weight = direction[j]!;
      const base = j * count;
      for (let row = 0; row < count; row++) out[row]! += weight * columns[base + row]!;
    }
    return out;
  }

  /** The unit vector of the chunk at `position` (a copy). */
  vector(position: number): Float32Array {
    const count = this.tree.chunks.length;
    const out = new Float32Array(this.dimensions);
    for (let j = 0; j < this.dimensions; j++) out[j] = this.columns[j * count + position]!;
    return out;
  }

  /** Position of a chunk id in the tree's chunk order, or `undefined`. */
  positionOf(id: ChunkId): number | undefined {
    return this.#positionById.get(chunkKey(id));
  }
}

function chunkKey(id: ChunkId): string {
  return String(id);
}
