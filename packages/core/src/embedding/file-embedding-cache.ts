import { createHash } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { EmbeddingCache } from './embedding-cache.js';

/**
 * A persistent embedding cache: one append-only file per model in a directory, so restarts and
 * re-deploys do not re-embed. Each record is `[text bytes: u32][text][dimensions: u32][float32 × dimensions]`;
 * a record cut short by a crash is ignored on the next load. As every `EmbeddingCache`, the last
 * vector stored for a text is the one answered (also after a restart: a later record replaces an
 * earlier one on load); storing the vector a text already has writes nothing.
 *
 * The file is compacted when it is loaded, if a crash left a record cut short at its end (appending
 * after it would make every later record unreadable) or if replaced records outnumber the live
 * ones: the live records are written to a new file that then replaces the old one by a rename, so a
 * crash during compaction leaves the old file whole. A directory it cannot write to still serves the
 * vectors it holds (a file ending cut short is then rewritten by the next write instead of appended
 * to). Several processes may share the directory; a record another process appends while this one
 * compacts can be lost, and is embedded again when next asked for (a cache loses nothing else).
 *
 * @example
 * const agent = new TreeAgent({ tree, embeddingCache: new FileEmbeddingCache('.data/embeddings') });
 */
export class FileEmbeddingCache implements EmbeddingCache {
  readonly directory: string;
  /** Packed index files of the agents using this cache: `index/` in its directory. */
  readonly indexDirectory: string;
  readonly #models = new Map<string, Map<string, Float32Array>>();
  /** Models whose file ends with a record cut short that load could not compact away. */
  readonly #endsCutShort = new Set<string>();

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
    mkdirSync(this.directory, { recursive: true });
    // Written first, then remembered: a write that fails leaves nothing answered as stored.
    if (this.#endsCutShort.has(modelId)) {
      rewrite(this.#file(modelId), new Map([...vectors, ...changed]));
      this.#endsCutShort.delete(modelId);
    } else {
      appendFileSync(
        this.#file(modelId),
        Buffer.concat(changed.map(([text, vector]) => encodeRecord(text, vector))),
      );
    }
    for (const [text, vector] of changed) vectors.set(text, vector);
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
    const file = this.#file(modelId);
    const loaded = existsSync(file) ? readRecords(readFileSync(file)) : undefined;
    vectors = loaded?.vectors ?? new Map();
    this.#models.set(modelId, vectors);
    if (loaded && (loaded.tornBytes > 0 || loaded.records - vectors.size > vectors.size)) {
      // Best effort: a read-only directory still serves what it holds. A file still ending cut
      // short is rewritten whole by the next write instead of appended to.
      try {
        rewrite(file, vectors);
      } catch {
        if (loaded.tornBytes > 0) this.#endsCutShort.add(modelId);
      }
    }
    return vectors;
  }
}

/**
 * The last vector of each text in a cache file, how many records it holds (replaced ones included),
 * and the bytes after its last whole record (`tornBytes`).
 */
function readRecords(data: Buffer): {
  vectors: Map<string, Float32Array>;
  records: number;
  tornBytes: number;
} {
  const vectors = new Map<string, Float32Array>();
  let records = 0;
  let offset = 0;
  while (offset + 4 <= data.length) {
    const textLength = data.readUInt32LE(offset);
    const dimensionsAt = offset + 4 + textLength;
    if (dimensionsAt + 4 > data.length) break;
    const dimensions = data.readUInt32LE(dimensionsAt);
    const end = dimensionsAt + 4 + dimensions * 4;
    if (end > data.length) break;
    const text = data.toString('utf8', offset + 4, dimensionsAt);
    // A copy into its own aligned buffer: the file's bytes are not kept.
    const vector = new Float32Array(new Uint8Array(data.subarray(dimensionsAt + 4, end)).buffer);
    vectors.set(text, vector);
    records++;
    offset = end;
  }
  return { vectors, records, tornBytes: data.length - offset };
}

/** Replaces `file` with one holding only `vectors`' records, by writing a new file and renaming it. */
function rewrite(file: string, vectors: ReadonlyMap<string, Float32Array>): void {
  const temporary = `${file}.${process.pid}.compacting`;
  try {
    writeFileSync(temporary, Buffer.concat([...vectors].map(([text, vector]) => encodeRecord(text, vector))));
    renameSync(temporary, file);
  } catch (error) {
    try {
      rmSync(temporary, { force: true });
    } catch {}
    throw new Error(
      `FileEmbeddingCache: could not compact ${file} (${(error as Error).message}). ` +
        'Give the cache a directory it can write to, or delete the file: its vectors are embedded again.',
    );
  }
}

function encodeRecord(text: string, vector: Float32Array): Buffer {
  const textBytes = Buffer.from(text, 'utf8');
  const record = Buffer.alloc(8 + textBytes.length + vector.length * 4);
  record.writeUInt32LE(textBytes.length, 0);
  textBytes.copy(record, 4);
  record.writeUInt32LE(vector.length, 4 + textBytes.length);
  Buffer.from(Float32Array.from(vector).buffer).copy(record, 8 + textBytes.length);
  return record;
}

function sameVector(stored: Float32Array | undefined, vector: Float32Array): boolean {
  if (!stored || stored.length !== vector.length) return false;
  for (let i = 0; i < vector.length; i++) if (!Object.is(stored[i], Math.fround(vector[i]!))) return false;
  return true;
}
