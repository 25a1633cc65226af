/** Conformance suites for adapters (they use vitest): run them against every implementation of a contract. */
export { describeSessionStore, type SessionStoreFactory } from './session-store-conformance.js';
export {
  CONFORMANCE_FILTERS,
  CONFORMANCE_RECORDS,
  describeVectorStore,
  type VectorStoreFactory,
} from './vector-store-conformance.js';
