/** What a knowledge source reads: a site crawled from a start URL, a sitemap's pages, or files. */
export type KnowledgeSourceKind = 'crawl' | 'sitemap' | 'file';

/** Where a source stands: added and never read, being refreshed, read, or its last refresh failed. */
export type KnowledgeSourceStatus = 'new' | 'refreshing' | 'ready' | 'failed';

/**
 * A knowledge source of a query node's collection (docs/knowledge.md): what to read, how often,
 * and how its last refresh went. A failed refresh keeps the chunks of the one before.
 */
export interface KnowledgeSource {
  id: string;
  kind: KnowledgeSourceKind;
  /** The start URL, the sitemap's URL, or the file's path. */
  location: string;
  /** The query node whose collection receives its chunks. */
  nodeId: number;
  /** The vector store collection its chunks go to (`<tree name>:<query node id>`). */
  collection: string;
  /** How it is read (crawl limits, include/exclude patterns…), as JSON. */
  options: Record<string, unknown>;
  /** Refreshed on a schedule every this many minutes; `null`: on demand only. */
  refreshMinutes: number | null;
  status: KnowledgeSourceStatus;
  createdAt: Date;
  /** When the last refresh ended (successful or not); `null` before the first. */
  refreshedAt: Date | null;
  /** Why the last refresh failed, or the pages it could not read; `null` when none. */
  error: string | null;
  /** Pages (or files) and chunks stored from it. */
  pages: number;
  chunks: number;
}

/** One page (or file) read from a source: what tells a refresh whether it changed. */
export interface KnowledgePage {
  /** The page's canonical URL (or the file's path): the chunks' `_source`. */
  url: string;
  title: string;
  etag: string | null;
  lastModified: string | null;
  /** SHA-256 (hex) of the extracted text. */
  contentHash: string;
  chunks: number;
  fetchedAt: Date;
}

/**
 * Where a server keeps its knowledge sources and, per source, the pages read from it (ETag,
 * Last-Modified and content hash, so a refresh re-embeds only what changed). The in-memory store
 * below is the reference; SQLite (`openSqlite(...).sourceStore`) and PostgreSQL
 * (`PostgresSourceStore`) keep them beside the other data. All pass `describeSourceStore`.
 */
export interface SourceStore {
  /** Inserts or replaces a source by id. */
  saveSource(source: KnowledgeSource): Promise<void>;
  getSource(id: string): Promise<KnowledgeSource | null>;
  /** Every source, oldest first (ties by id). */
  listSources(): Promise<KnowledgeSource[]>;
  /** Deletes a source and its pages (not its chunks: the caller removes them from the vector store). */
  deleteSource(id: string): Promise<void>;
  /** A source's pages, by URL. */
  listPages(sourceId: string): Promise<KnowledgePage[]>;
  /** In one write: inserts or replaces `pages` (by URL) and deletes the pages at `removed`. */
  savePages(sourceId: string, pages: readonly KnowledgePage[], removed: readonly string[]): Promise<void>;
}
