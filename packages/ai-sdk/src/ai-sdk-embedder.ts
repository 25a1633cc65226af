import type { EmbeddingModelV3 } from '@ai-sdk/provider';
import type { Embedder, EmbedOptions } from '@treeagent/core/adapter';
import { embedMany } from 'ai';

export interface AiSdkEmbedderOptions {
  /** Cache key of the model; change it when the model changes. Default: `<provider>:<modelId>`. */
  id?: string;
  dimensions?: number;
  maxRetries?: number;
}

/**
 * Wraps any AI SDK embedding model (OpenAI, Azure, Ollama through an OpenAI-compatible server…)
 * as a Tree Agent `Embedder`.
 *
 * @example
 * const embedder = aiSdkEmbedder(createOpenAI({ apiKey }).embedding('text-embedding-3-small'));
 */
export function aiSdkEmbedder(model: EmbeddingModelV3, options: AiSdkEmbedderOptions = {}): Embedder {
  return {
    id: options.id ?? `${model.provider}:${model.modelId}`,
    ...(options.dimensions === undefined ? {} : { dimensions: options.dimensions }),
    async embed(texts: readonly string[], embedOptions: EmbedOptions = {}) {
      const { embeddings } = await embedMany({
        model,
        values: [...texts],
        maxRetries: options.maxRetries ?? 2,
        ...(embedOptions.signal ? { abortSignal: embedOptions.signal } : {}),
      });
      return embeddings;
    },
  };
}
