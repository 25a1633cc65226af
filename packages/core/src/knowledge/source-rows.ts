import type { KnowledgePage, KnowledgeSource } from './source-store.js';

/**
 * The columns of a SQL table of knowledge sources (SQLite, PostgreSQL), in the order
 * `knowledgeSourceValues` returns them.
 */
export const KNOWLEDGE_SOURCE_COLUMNS = [
  'id',
  'kind',
  'location',
  'node_id',
  'collection',
  'options',
  'refresh_minutes',
  'status',
  'created_at',
  'refreshed_at',
  'error',
  'pages',
  'chunks',
] as const;

/**
 * A row of `KNOWLEDGE_SOURCE_COLUMNS` as a driver reads it back: times as ISO text (SQLite) or a
 * `Date` (PostgreSQL's `timestamptz`), the options as JSON text or parsed `jsonb`.
 */
export interface KnowledgeSourceRow {
  id: string;
  kind: KnowledgeSource['kind'];
  location: string;
  node_id: number;
  collection: string;
  options: string | Record<string, unknown>;
  refresh_minutes: number | null;
  status: KnowledgeSource['status'];
  created_at: string | Date;
  refreshed_at: string | Date | null;
  error: string | null;
  pages: number;
  chunks: number;
}

/** A knowledge source as the values of `KNOWLEDGE_SOURCE_COLUMNS` (times as ISO text, options as JSON). */
export function knowledgeSourceValues(source: KnowledgeSource): unknown[] {
  return [
    source.id,
    source.kind,
    source.location,
    source.nodeId,
    source.collection,
    JSON.stringify(source.options),
    source.refreshMinutes,
    source.status,
    source.createdAt.toISOString(),
    source.refreshedAt?.toISOString() ?? null,
    source.error,
    source.pages,
    source.chunks,
  ];
}

/** The knowledge source a row of `KNOWLEDGE_SOURCE_COLUMNS` holds. */
export function knowledgeSourceOfRow(row: KnowledgeSourceRow): KnowledgeSource {
  return {
    id: row.id,
    kind: row.kind,
    location: row.location,
    nodeId: row.node_id,
    collection: row.collection,
    options:
      typeof row.options === 'string' ? (JSON.parse(row.options) as Record<string, unknown>) : row.options,
    refreshMinutes: row.refresh_minutes,
    status: row.status,
    createdAt: new Date(row.created_at),
    refreshedAt: row.refreshed_at ? new Date(row.refreshed_at) : null,
    error: row.error,
    pages: row.pages,
    chunks: row.chunks,
  };
}

/**
 * The columns of a SQL table of the pages read from knowledge sources, in the order
 * `knowledgePageValues` returns them.
 */
export const KNOWLEDGE_PAGE_COLUMNS = [
  'source_id',
  'url',
  'title',
  'etag',
  'last_modified',
  'content_hash',
  'chunks',
  'fetched_at',
] as const;

/** A row of the pages table as a driver reads it back: `fetched_at` as ISO text or a `Date`. */
export interface KnowledgePageRow {
  url: string;
  title: string;
  etag: string | null;
  last_modified: string | null;
  content_hash: string;
  chunks: number;
  fetched_at: string | Date;
}

/** A page of source `sourceId` as the values of `KNOWLEDGE_PAGE_COLUMNS` (its time as ISO text). */
export function knowledgePageValues(sourceId: string, page: KnowledgePage): unknown[] {
  return [
    sourceId,
    page.url,
    page.title,
    page.etag,
    page.lastModified,
    page.contentHash,
    page.chunks,
    page.fetchedAt.toISOString(),
  ];
}

/** The page a row of the pages table holds. */
export function knowledgePageOfRow(row: KnowledgePageRow): KnowledgePage {
  return {
    url: row.url,
    title: row.title,
    etag: row.etag,
    lastModified: row.last_modified,
    contentHash: row.content_hash,
    chunks: row.chunks,
    fetchedAt: new Date(row.fetched_at),
  };
}
