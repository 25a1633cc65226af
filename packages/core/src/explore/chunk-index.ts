import { embedTexts } from '../embedding/embed-texts.js';
import type { Embedder } from '../embedding/embedder.js';
import type { EmbeddingCache } from '../embedding/embedding-cache.js';
import type { ChunkId } from '../tree/chunk.js';
import type { Tree } from '../tree/tree.js';

/**
 * The vectors of every chunk of a tree, unit length, in one contiguous matrix in the tree's
 * depth-first chunk order. One pass over it gives the similarity of a direction to every chunk;
 * each exploration hop then reads only that array.
 */
export class ChunkIndex {
  readonly tree: Tree;
  readonly dimensions: number;
  /** `chunks × dimensions` unit vectors, row-major. */
  readonly matrix: Float32Array;
  readonly #positionById: Map<string, number>;

  private constructor(tree: Tree, dimensions: number, matrix: Float32Array) {
    this.tree = tree;
    this.dimensions = dimensions;
    this.matrix = matrix;
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
    const matrix = new Float32Array(vectors.length * dimensions);
    vectors.forEach((vector, row) => {
      matrix.set(vector, row * dimensions);
    });
    return new ChunkIndex(tree, dimensions, matrix);
  }

  /** Cosine similarity of a unit `direction` to every chunk, in chunk order. */
  similarities(direction: Float32Array): Float32Array {
    const { dimensions, matrix } = this;
    const count = this.tree.chunks.length;
    const out = new Float32Array(count);
    if (direction.length !== dimensions) return out;
    for (let row = 0, offset = 0; row < count; row++, offset += dimensions) {
      let dot = 0;
      for (let i = 0; i < dimensions; i++) dot += matrix[offset + i]! * direction[i]!;
      out[row] = dot;
    }
    return out;
  }

  /** The unit vector of the chunk at `position`. */
  vector(position: number): Float32Array {
    return this.matrix.subarray(position * this.dimensions, (position + 1) * this.dimensions);
  }

  /** Position of a chunk id in the tree's chunk order, or `undefined`. */
  positionOf(id: ChunkId): number | undefined {
    return this.#positionById.get(chunkKey(id));
  }
}

function chunkKey(id: ChunkId): string {
  return String(id);
}
