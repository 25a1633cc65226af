import { TreeAgentError } from '../errors/tree-agent-error.js';
import { embedTexts } from './embed-texts.js';
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
 * Its vectors are not cached as such (`cacheable: false`): each part is embedded through the
 * caller's cache under the part's own id, so the parts' vectors are stored once and shared with any
 * other embedder that uses them (a hashed part with the agent's unfitted space, for example).
 *
 * @example
 * const embedder = new ConcatEmbedder([{ embedder: new UseEmbedder() }, { embedder: new HashedEmbedder(), weight: 0.5 }]);
 */
export class ConcatEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number | undefined;
  /** The parts are cached, under their own ids; the concatenation is derived from them. */
  readonly cacheable = false;
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
    // In turn, not at once: a neural part and the hashed one would only compete for the same thread.
    const results: Float32Array[][] = [];
    for (const part of this.#parts)
      results.push(await embedTexts(part.embedder, texts, options.cache, options.signal));
    const scales = this.#parts.map((part) => part.scale);
    return texts.map((_, row) =>
      concatScaled(
        results.map((vectors) => vectors[row]!),
        scales,
      ),
    );
  }
}
