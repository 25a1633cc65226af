/** Conformance suites for adapters (they use vitest): run them against every implementation of a contract. */

export type {
  CorpusCase,
  CorpusCollection,
  CorpusPoint,
  CorpusRequest,
} from '../filter/qdrant-corpus/index.js';
export { CORPUS_CASES, CORPUS_COLLECTIONS } from '../filter/qdrant-corpus/index.js';
export {
  CORPUS_COLLECTION,
  type CorpusOutcome,
  corpusCollection,
  corpusOutcome,
  corpusQueryVector,
  corpusRecords,
  corpusScoreScale,
  describeQdrantCorpus,
  type QdrantCorpusOptions,
  runCorpusRequest,
} from './qdrant-corpus-conformance.js';
export { describeSessionStore, type SessionStoreFactory } from './session-store-conformance.js';
export {
  CONFORMANCE_FILTERS,
  CONFORMANCE_RECORDS,
  describeVectorStore,
  type VectorStoreFactory,
} from './vector-store-conformance.js';
