import { readFileSync } from 'node:fs';
import { TreeAgentError } from '@treeagent/core';
import type { Embedder, EmbedOptions } from '@treeagent/core/adapter';
import { type Features, featuresOf } from './student-features.js';
import { averageRows, forward } from './student-network.js';
import { decodeStudentWeights, type StudentWeights } from './student-weights.js';

/** The shipped weights, inside the package (`weights/` beside `dist/` and `src/`). */
export const STUDENT_WEIGHTS_URL = new URL('../../weights/use-student.bin', import.meta.url);

/**
 * The id of the shipped student: the weights file says which one it holds (`training.id`), so a
 * retrained file without a new id here fails to load instead of mixing caches and fits.
 */
export const USE_STUDENT_ID = 'use-lite-student-en@1';

/** Options of `new UseStudentEmbedder()`. */
export interface UseStudentEmbedderOptions {
  /** Another weights file than the shipped one (a path or a file URL): a retrained student. */
  weightsFile?: URL | string;
}

/**
 * A distilled student of Universal Sentence Encoder lite (English, 512 dimensions): a deep
 * averaging network over words and word pairs, trained to give USE-lite's vectors for generic
 * English (WordNet glosses, fortunes, request-like sentences; never an intent set). Plain
 * JavaScript on the calling thread, no tfjs and no worker: about 0.15 ms of CPU per text, against
 * 4–20 ms for USE-lite, for vectors that agree with USE-lite's at a cosine of about 0.8 (less
 * faithful on unknown words and long sentences). Its weights (10.5 MB) ship in this package and load
 * on the first `embed` (about 70 ms); its `id` differs from USE-lite's, so caches and fits
 * keyed by the embedder never mix the two.
 *
 * @example
 * const agent = new TreeAgent({ tree, embedder: new UseStudentEmbedder() });
 */
export class UseStudentEmbedder implements Embedder {
  readonly id = USE_STUDENT_ID;
  readonly dimensions = 512;
  /**
   * Not kept in embedding caches: computing a vector (≈ 0.15 ms) costs less than storing and reading
   * it, and a message's vector is then never persisted.
   */
  readonly cacheable = false;
  readonly #source: URL | string;
  #weights: StudentWeights | null = null;

  constructor(options: UseStudentEmbedderOptions = {}) {
    this.#source = options.weightsFile ?? STUDENT_WEIGHTS_URL;
  }

  /**
   * One vector per text, in order; a text with no word (empty, blank, only symbols) is a zero
   * vector. Computed on the calling thread (≈ 0.15 ms of CPU a text); an aborted `options.signal` rejects.
   */
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    options.signal?.throwIfAborted();
    const { space, network } = this.#load();
    const x = new Float32Array(network.embedding);
    const hidden = new Float32Array(network.hidden);
    return texts.map((text) => {
      const out = new Float32Array(network.output);
      const features: Features = featuresOf(text, space);
      if (features.rows.length === 0) return out;
      averageRows(network, features, x);
      forward(network, x, hidden, out);
      return out;
    });
  }

  #load(): StudentWeights {
    if (this.#weights) return this.#weights;
    let weights: StudentWeights;
    try {
      weights = decodeStudentWeights(readFileSync(this.#source));
    } catch (error) {
      throw new TreeAgentError(
        'EMBEDDER',
        `Cannot load the USE-lite student's weights from ${String(this.#source)}: ${(error as Error).message}. Reinstall @treeagent/embedder-use (its weights/ folder holds them).`,
        { cause: error, details: { operation: 'load' } },
      );
    }
    if (weights.header.training.id !== USE_STUDENT_ID)
      throw new TreeAgentError(
        'EMBEDDER',
        `The weights file ${String(this.#source)} holds the student ${JSON.stringify(weights.header.training.id)}, not ${USE_STUDENT_ID}: give a retrained student a new id (USE_STUDENT_ID) so caches and fits of the old one are not reused.`,
        { details: { operation: 'load' } },
      );
    this.#weights = weights;
    return weights;
  }
}
