/**
 * Conformance suites for adapters (they use vitest): run them against every implementation of a
 * contract. Each takes a factory; the newer ones also a skip list whose entries name their reason.
 */

export {
  ANALYTICS_EXPECTED,
  ANALYTICS_FIXTURE,
  type FixtureConversation,
} from './analytics-fixture.js';
export { type AnalyticsStoreFactory, describeAnalyticsStore } from './analytics-store-conformance.js';
export { type CallbackRequestsFixture, describeCallbackRequests } from './callback-requests-conformance.js';
export { type CannedResponsesFixture, describeCannedResponses } from './canned-responses-conformance.js';
export { type ChannelFixture, describeChannel, type FakePlatformSend } from './channel-conformance.js';
export {
  type ChannelInboxFixture,
  describeChannelInbox,
  expectInboxDoneInCommit,
} from './channel-inbox-conformance.js';
export { type ChannelStoreFixture, describeChannelStore } from './channel-store-conformance.js';
export {
  describeEmbedder,
  type EmbedderConformanceOptions,
  type EmbedderFactory,
} from './embedder-conformance.js';
export { describeEmbeddingCache, type EmbeddingCacheFactory } from './embedding-cache-conformance.js';
export { describeEventBus, type EventBusFixture } from './event-bus-conformance.js';
export { describeFileStore, type FileStoreFactory } from './file-store-conformance.js';
export {
  describeHandoffOutbox,
  expectEventsInCommit,
  type HandoffOutboxFixture,
} from './handoff-outbox-conformance.js';
export { describeHandoffQueue, type HandoffQueueFixture } from './handoff-queue-conformance.js';
export {
  CONFORMANCE_SCHEMA,
  CONFORMANCE_TOOL,
  conformanceAnswer,
  describeLanguageModel,
  type LanguageModelConformanceOptions,
  type LanguageModelFactory,
} from './language-model-conformance.js';
export { describeOperatorRouting, type OperatorRoutingFixture } from './operator-routing-conformance.js';
export { describeOperatorStores, type OperatorStoresFixture } from './operator-stores-conformance.js';
export type {
  CorpusCase,
  CorpusCollection,
  CorpusPoint,
  CorpusRequest,
} from './qdrant-corpus/index.js';
export { CORPUS_CASES, CORPUS_COLLECTIONS } from './qdrant-corpus/index.js';
export {
  CORPUS_COLLECTION,
  type CorpusAnswer,
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
export { describeSatisfactionRatings, type SatisfactionRatingsFixture } from './satisfaction-conformance.js';
export { describeSessionStore, type SessionStoreFactory } from './session-store-conformance.js';
export { describeSessionTokens, type SessionTokensFixture } from './session-tokens-conformance.js';
export { type ConformanceOptions, type ConformanceSkip, conformanceCases } from './skip-list.js';
export { describeSourceStore, type SourceStoreFixture } from './source-store-conformance.js';
export { describeSpaceFitter, type SpaceFitterFixture } from './space-fitter-conformance.js';
export {
  CONFORMANCE_FILTERS,
  CONFORMANCE_RECORDS,
  describeVectorStore,
  type VectorStoreFactory,
} from './vector-store-conformance.js';
export { describeVersionStore, type VersionStoreFixture } from './version-store-conformance.js';
