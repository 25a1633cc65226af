import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { Embedder, EmbedOptions } from './embedder.js';
import { concatScaled } from './vector-math.js';

export interface ConcatPart {
  embedder: Embedder;
  /** Weight of this part in the cosine similarity. Default 1. */
  weight?: number;
}

/**
 * Combines embedders by concatenating their unit-normalised vectors, each scaled by the square root of
 * its weight: the cosine similarity of the combination is then the weighted mean of the parts'
 * similarities. A neural model plus the hashed n-grams, for example, catches both paraphrases and
 * exact words.
 *
 * @example
 * const embedder = new ConcatEmbedder([{ embedder: new UseEmbedder() }, { embedder: new HashedEmbedder(), weight: 0.5 }]);
 */
export class ConcatEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number | undefined;
  readonly #parts: { embedder: Embedder; scale: number }[];

  constructor(parts: readonly (ConcatPart | Embedder)[]) {
    if (parts.length === 0)
      throw new TreeAgentError('INVALID_INPUT', 'ConcatEmbedder needs at least one embedder.');
    const normalised = parts.map((part) => ('embedder' in part ? part : { embedder: part }));
    const total = normalised.reduce((sum, part) => sum + (part.weight ?? 1), 0);
    this.#parts = normalised.map((part) => {
      const weight = part.weight ?? 1;
      if (!(weight > 0))
        throw new TreeAgentError(
          'INVALID_INPUT',
          `ConcatEmbedder: the weight of "${part.embedder.id}" must be positive.`,
        );
      return { embedder: part.embedder, scale: Math.sqrt(weight / total) };
    });
    this.id = `concat(${normalised.map((part) => `${part.embedder.id}*${part.weight ?? 1}`).join(',')})`;
    const dimensions = normalised.map((part) => part.embedder.dimensions);
    this.dimensions = dimensions.every((value) => value !== undefined)
      ? dimensions.reduce((a, b) => a! + b!, 0)
      : undefined;
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const results = await Promise.all(this.#parts.map((part) => part.embedder.embed(texts, options)));
    const scales = this.#parts.map((part) => part.scale);
    return texts.map((_, row) =>
      concatScaled(
        results.map((vectors) => vectors[row]!),
        scales,
      ),
    );
  }
}
