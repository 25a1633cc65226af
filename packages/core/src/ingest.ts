/**
 * `@treeagent/core/ingest`: documents into a query node's collection (docs/concepts.md, query nodes)
 * — split into chunks, embedded and upserted into a `VectorStore`, with the payload keys the chunks
 * carry. The CLI's `ingest` and `@treeagent/sources` use it.
 */

export {
  chunkId,
  type IngestDocument,
  type IngestOptions,
  type IngestReport,
  ingestDocuments,
  SOURCE_KEY,
} from './ingest/ingest-documents.js';
export { type SplitOptions, splitText, type TextPiece } from './ingest/split-text.js';
