/**
 * Conformance suites for adapters (they use vitest): run them against every implementation of a
 * contract. Each takes a factory and a skip list whose entries name their reason.
 */
export {
  describeEmbedder,
  type EmbedderConformanceOptions,
  type EmbedderFactory,
} from './embedder-conformance.js';
export { describeEmbeddingCache, type EmbeddingCacheFactory } from './embedding-cache-conformance.js';
export { describeFileStore, type FileStoreFactory } from './file-store-conformance.js';
export {
  CONFORMANCE_SCHEMA,
  conformanceAnswer,
  describeLanguageModel,
  type LanguageModelConformanceOptions,
  type LanguageModelFactory,
} from './language-model-conformance.js';
export { describeSessionStore, type SessionStoreFactory } from './session-store-conformance.js';
export type { ConformanceOptions, ConformanceSkip } from './skip-list.js';
export {
  CONFORMANCE_FILTERS,
  CONFORMANCE_RECORDS,
  describeVectorStore,
  type VectorStoreFactory,
} from './vector-store-conformance.js';
