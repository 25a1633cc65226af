import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EmbeddingCache } from './embedding-cache.js';

/**
 * A persistent embedding cache: one append-only file per model in a directory, so restarts and
 * re-deploys do not re-embed. Each record is `[text bytes: u32][text][dimensions: u32][float32 × dimensions]`;
 * a record cut short by a crash is ignored on the next load. As every `EmbeddingCache`, the last
 * vector stored for a text is the one answered (also after a restart: a later record replaces an
 * earlier one on load); storing the vector a text already has writes nothing.
 *
 * @example
 * const agent = new TreeAgent({ tree, embeddingCache: new FileEmbeddingCache('.data/embeddings') });
 */
export class FileEmbeddingCache implements EmbeddingCache {
  readonly directory: string;
  /** Packed index files of the agents using this cache: `index/` in its directory. */
  readonly indexDirectory: string;
  readonly #models = new Map<string, Map<string, Float32Array>>();

  constructor(directory: string) {
    this.directory = directory;
    this.indexDirectory = join(directory, 'index');
  }

  async getMany(modelId: string, texts: readonly string[]): Promise<(Float32Array | undefined)[]> {
    const vectors = this.#load(modelId);
    return texts.map((text) => vectors.get(text));
  }

  async setMany(modelId: string, entries: readonly { text: string; vector: Float32Array }[]): Promise<void> {
    const vectors = this.#load(modelId);
    // The last entry for a text wins, as in memory and SQLite; an unchanged vector is not re-written.
    const latest = new Map(entries.map((entry) => [entry.text, entry.vector]));
    const changed = [...latest].filter(([text, vector]) => !sameVector(vectors.get(text), vector));
    if (!changed.length) return;
    const buffers: Buffer[] = [];
    for (const [text, vector] of changed) {
      const textBytes = Buffer.from(text, 'utf8');
      const header = Buffer.alloc(4);
      header.writeUInt32LE(textBytes.length);
      const dimensions = Buffer.alloc(4);
      dimensions.writeUInt32LE(vector.length);
      buffers.push(header, textBytes, dimensions, Buffer.from(Float32Array.from(vector).buffer));
      vectors.set(text, vector);
    }
    mkdirSync(this.directory, { recursive: true });
    appendFileSync(this.#file(modelId), Buffer.concat(buffers));
  }

  /** Number of vectors cached for a model. */
  size(modelId: string): number {
    return this.#load(modelId).size;
  }

  #file(modelId: string): string {
    const safe = modelId.replace(/[^a-zA-Z0-9._-]+/g, '_').slice(0, 60);
    return join(
      this.directory,
      `${safe}-${createHash('sha256').update(modelId).digest('hex').slice(0, 12)}.vectors`,
    );
  }

  #load(modelId: string): Map<string, Float32Array> {
    let vectors = this.#models.get(modelId);
    if (vectors) return vectors;
    vectors = new Map();
    this.#models.set(modelId, vectors);
    const file = this.#file(modelId);
    if (!existsSync(file)) return vectors;
    const data = readFileSync(file);
    let offset = 0;
    while (offset + 4 <= data.length) {
      const textLength = data.readUInt32LE(offset);
      const dimensionsAt = offset + 4 + textLength;
      if (dimensionsAt + 4 > data.length) break;
      const dimensions = data.readUInt32LE(dimensionsAt);
      const end = dimensionsAt + 4 + dimensions * 4;
      if (end > data.length) break;
      const text = data.toString('utf8', offset + 4, dimensionsAt);
      const vector = new Float32Array(dimensions);
      for (let i = 0; i < dimensions; i++) vector[i] = data.readFloatLE(dimensionsAt + 4 + i * 4);
      vectors.set(text, vector);
      offset = end;
    }
    return vectors;
  }
}

function sameVector(stored: Float32Array | undefined, vector: Float32Array): boolean {
  if (!stored || stored.length !== vector.length) return false;
  for (let i = 0; i < vector.length; i++) if (!Object.is(stored[i], Math.fround(vector[i]!))) return false;
  return true;
}
