export {
  chunkId,
  type IngestDocument,
  type IngestOptions,
  type IngestReport,
  ingestDocuments,
  SOURCE_KEY,
} from './ingest-documents.js';
export { type SplitOptions, splitText, type TextPiece } from './split-text.js';
