import { createHash } from 'node:crypto';
import { embedTexts } from '../embedding/embed-texts.js';
import type { Embedder } from '../embedding/embedder.js';
import type { EmbeddingCache } from '../embedding/embedding-cache.js';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import { CHUNK_FILE_KEY } from '../files/file-agent.js';
import type { ChunkId } from '../protocol/chunk-id.js';
import type { FileMetadata } from '../protocol/file-metadata.js';
import type { Tree } from '../tree/tree.js';
import { scrollAll } from '../vector/scroll-all.js';
import type { VectorRecord, VectorStore } from '../vector/vector-store.js';
import { type SplitOptions, splitText } from './split-text.js';
/** Payload key that marks a chunk as coming from an ingested document (its source name). */
export const SOURCE_KEY = '_source';

/** A document to ingest: a name that identifies it across runs (its path), and its text. */
export interface IngestDocument {
  source: string;
  text: string;
  /** The title chunks cite (payload `title`); default the source. */
  title?: string;
  /**
   * The address chunks cite (payload `url`): a web page's URL or a file's path. A chunk under a
   * heading with an anchor (`## Title {#anchor}`) cites `url#anchor`.
   */
  url?: string;
  /** Extra payload for every chunk of the document (tags that filters select on). */
  extra?: Record<string, unknown>;
  /**
   * The document's file in the agent's `FileStore`, when it is kept there: every chunk then carries
   * `extra.file = { id, name, mimeType }`, and the File Agent lists it (origin `rag`) when a query
   * node retrieves one of its chunks.
   */
  file?: Pick<FileMetadata, 'id' | 'name' | 'mimeType'>;
}

export interface IngestOptions extends SplitOptions {
  tree: Tree;
  /** The query node whose collection receives the chunks. */
  nodeId: number;
  vectorStore: VectorStore;
  embedder: Embedder;
  embeddingCache?: EmbeddingCache;
  /** Collection name; default the agent's: `<tree name>:<node id>`. */
  collection?: string;
  onProgress?: (done: number, total: number) => void;
  /**
   * True when none of these documents has chunks in the collection yet (a page read for the first
   * time): the look-up of their old chunks, a scan of the collection on some stores, is skipped.
   * Wrong when a document was stored before: its old chunks beyond the new count would stay.
   */
  unseen?: boolean;
}

export interface IngestReport {
  documents: number;
  /** Chunks written (new or changed). */
  written: number;
  /** Chunks already stored with the same text. */
  unchanged: number;
  /** Chunks of these documents left over from an earlier run, removed. */
  removed: number;
}

/**
 * Loads documents into a query node's vector store collection: split into pieces, embedded through
 * the cache, stored with ids derived from the source and the piece's position. Re-running with the
 * same documents writes nothing new; a changed document replaces its chunks and removes the extra
 * ones. Chunks carry `{ title, heading, anchor, page, url, _source, …extra }` in their payload.
 */
export async function ingestDocuments(
  documents: readonly IngestDocument[],
  options: IngestOptions,
): Promise<IngestReport> {
  const node = options.tree.nodes.get(options.nodeId);
  if (node?.type !== 'query') {
    throw new TreeAgentError(
      'INVALID_INPUT',
      `Node ${options.nodeId} is not a query node of the tree "${options.tree.name}": documents go into a query node's collection.`,
    );
  }
  const collection = options.collection ?? `${options.tree.name}:${options.nodeId}`;
  const report: IngestReport = { documents: documents.length, written: 0, unchanged: 0, removed: 0 };
  let done = 0;
  for (const document of documents) {
    const pieces = splitText(document.text, options);
    const records = pieces.map((piece, index) => ({
      id: chunkId(document.source, index),
      text: piece.text,
      payload: {
        title: document.title ?? document.source,
        ...(piece.heading ? { heading: piece.heading } : {}),
        ...(piece.anchor ? { anchor: piece.anchor } : {}),
        ...(piece.page ? { page: piece.page } : {}),
        ...(document.url
          ? { url: piece.anchor ? `${document.url.replace(/#.*$/, '')}#${piece.anchor}` : document.url }
          : {}),
        ...(document.extra ?? {}),
        ...(document.file
          ? {
              [CHUNK_FILE_KEY]: {
                id: document.file.id,
                name: document.file.name,
                mimeType: document.file.mimeType,
              },
            }
          : {}),
        [SOURCE_KEY]: document.source,
      },
    }));
    const existing = options.unseen
      ? new Map<string, string>()
      : await storedChunks(options.vectorStore, collection, document.source);
    const fresh = records.filter((record) => existing.get(String(record.id)) !== record.text);
    report.unchanged += records.length - fresh.length;
    if (fresh.length) {
      const vectors = await embedTexts(
        options.embedder,
        fresh.map((record) => record.text),
        options.embeddingCache,
      );
      await options.vectorStore.upsert(
        collection,
        fresh.map((record, index): VectorRecord => ({ ...record, vector: vectors[index]! })),
      );
      report.written += fresh.length;
    }
    const keep = new Set(records.map((record) => String(record.id)));
    const stale = [...existing.keys()].filter((id) => !keep.has(id));
    if (stale.length) await options.vectorStore.delete(collection, stale);
    report.removed += stale.length;
    options.onProgress?.(++done, documents.length);
  }
  return report;
}

/** A stable UUID for a document's n-th piece (valid on every backend, Qdrant included). */
export function chunkId(source: string, index: number): ChunkId {
  const hex = createHash('sha256').update(`${source}#${index}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

async function storedChunks(
  store: VectorStore,
  collection: string,
  source: string,
): Promise<Map<string, string>> {
  const chunks = await scrollAll(store, collection, {
    must: [{ key: SOURCE_KEY, match: { value: source } }],
  });
  return new Map(chunks.map((chunk) => [String(chunk.id), chunk.text]));
}
