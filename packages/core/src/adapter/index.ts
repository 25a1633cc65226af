/**
 * `@treeagent/core/adapter`: what the authors of adapters (session stores, vector stores, file
 * stores, embedders, model bindings, space fitters, analytics and handoff backends) implement — the
 * contracts — and the helpers beside them (docs/reference.md, "For adapter authors"). The ready
 * in-memory implementations a tree author passes to `TreeAgent` are at the root.
 */

export type { AnalyticsStore } from '../analytics/analytics-store.js';

// Turn facts: the analytics SQL the SQLite and PostgreSQL stores share (docs/analytics.md).
export {
  type SqlDialect,
  type SqlRunner,
  TURN_FACT_COLUMNS,
  TurnFactsSql,
  turnFactValues,
} from '../analytics/turn-facts-sql.js';
// Embedders and embedding caches: the contracts, and vector math shared by embedders and vector stores.
// Messaging channels (docs/channels.md): the contract of a platform on the server's channel seam and
// of the store of channel identities and the outbox, with its in-memory reference.
export {
  type AttachmentDownloadOptions,
  AttachmentTooLargeError,
  type Channel,
  type ChannelCapabilities,
  type ChannelDeliveryFailure,
  type ChannelListener,
  type ChannelReceiveContext,
  type ChannelRequest,
  type ChannelSend,
  ChannelSendError,
  type ChannelSendProgress,
  type InboundAttachment,
  type InboundMessage,
  optionOfAnswer,
  optionsFor,
  readBodyWithin,
  refuseDeclaredOver,
  splitText,
  textWithOptions,
} from '../channel/channel.js';
export { type ChannelInboxRow, channelInboxEntryOfRow } from '../channel/channel-inbox-rows.js';
export { channelDeadLetterLimit, conversationKey } from '../channel/channel-keys.js';
export { outboundOfTurn, payloadsOfOutput } from '../channel/channel-outbound.js';
export { InMemoryChannelInbox } from '../channel/in-memory-channel-inbox.js';
export { InMemoryChannelStore } from '../channel/in-memory-channel-store.js';
// Vector math shared by embedders and vector stores.
export { defaultEmbedderFor } from '../embedding/default-embedder.js';
export { embedTexts } from '../embedding/embed-texts.js';
export type { Embedder, EmbeddingVector, EmbedOptions } from '../embedding/embedder.js';
export type { EmbeddingCache } from '../embedding/embedding-cache.js';
export { RECENT_EMBEDDINGS_DEFAULT, RecentEmbeddingCache } from '../embedding/recent-embedding-cache.js';
export {
  countEnglish,
  countLanguages,
  detectTreeLanguage,
  ENGLISH_TREE_SHARE,
  isEnglishTree,
  type LanguageCount,
  type TreeChunks,
  type TreeLanguage,
} from '../embedding/tree-language.js';
export {
  concatScaled,
  cosineSimilarity,
  dot,
  type NumericVector,
  norm,
  normalize,
  normalizeInPlace,
} from '../embedding/vector-math.js';
export {
  ANALYSED_LANGUAGES,
  type AnalysedLanguage,
  analyseWords,
  isAnalysedLanguage,
} from '../embedding/word-analysis.js';
export type { HandoffAction, HandoffUpdate, OperatorReply } from '../engine/agent/handoff-actions.js';
// Several tree versions served at once, each session on its own (TreeAgentOptions.sessionTrees).
export {
  DEFAULT_MAX_LOADED_TREE_BYTES,
  DEFAULT_MAX_LOADED_TREES,
  type SessionTrees,
  type SessionUnit,
} from '../engine/agent/session-trees.js';
// The space fitter (`TreeAgentOptions.spaceFitter`; `@treeagent/fit` implements it).
export {
  AUTO_FIT_MIN_CHUNKS,
  type FittedSpace,
  type InterimSpace,
  type SpaceEscalation,
  type SpaceFitRequest,
  type SpaceFitter,
} from '../engine/runtime/space-fitter.js';
export { describeHandoff } from '../engine/turn/handoff-rows.js';
// File stores that keep a file as numbered chunks (SQLite, PostgreSQL): one way to cut and count.
export { singlePart, storedFileMetadata, writeInChunks } from '../files/chunked-upload.js';
export type { FileStore, NewFile, NewFileStream } from '../files/file-store.js';
// Qdrant filters: one evaluator, so every store answers a filter the same way.
export { compileFilter, evaluateFilter, whitespaceWords } from '../filter/evaluate-filter.js';
export { EARTH_RADIUS_METERS, toRadians } from '../filter/geo.js';
export { type PathStep, parsePath } from '../filter/json-path.js';
// Human handoff on a server (docs/handoff.md): the contracts of the stores around the engine's
// handoff, each with its in-memory reference; SQLite and PostgreSQL implement them in their packages.
export {
  type AuditEntry,
  type AuditLog,
  type AuditQuery,
  type AuditRecord,
  type AuditValue,
  auditLimit,
  InMemoryAuditLog,
} from '../handoff/audit-log.js';
export {
  CALLBACK_REQUEST_COLUMNS,
  type CallbackRequestRow,
  callbackRequestOfRow,
  callbackRequestValues,
} from '../handoff/callback-request-rows.js';
export {
  type CallbackRequest,
  type CallbackRequests,
  InMemoryCallbackRequests,
} from '../handoff/callback-requests.js';
export { type CannedResponseRow, cannedResponseOfRow } from '../handoff/canned-response-rows.js';
export {
  type CannedResponse,
  type CannedResponses,
  duplicateShortcut,
  InMemoryCannedResponses,
} from '../handoff/canned-responses.js';
export { type BusEvent, type EventBus, InMemoryEventBus } from '../handoff/event-bus.js';
export { handoffEventId, handoffEventsOf } from '../handoff/handoff-events.js';
export {
  type HandoffNote,
  type HandoffQueue,
  InMemoryHandoffQueue,
  type OpenQueueTally,
  type QueueEntry,
  type QueueQuery,
  type QueueStatusFilter,
  queueLimit,
  queueStatusMatches,
  sortQueue,
  tallyOpenEntries,
} from '../handoff/handoff-queue.js';
export { deadLetterLimit, InMemoryHandoffOutbox } from '../handoff/in-memory-handoff-outbox.js';
export {
  InMemoryOperatorRouting,
  nextAfter,
  type OperatorPresence,
  type OperatorRouting,
  type PresenceStatus,
} from '../handoff/operator-routing.js';
export {
  type ExternalOperatorIdentity,
  InMemoryOperatorSessions,
  type OperatorSessionRecord,
  type OperatorSessions,
} from '../handoff/operator-sessions.js';
export {
  InMemorySatisfactionRatings,
  type SatisfactionGroup,
  type SatisfactionRating,
  type SatisfactionRatings,
  satisfactionBy,
} from '../handoff/satisfaction.js';
export {
  SATISFACTION_RATING_COLUMNS,
  type SatisfactionRatingRow,
  satisfactionRatingOfRow,
  satisfactionRatingValues,
} from '../handoff/satisfaction-rows.js';
export {
  type ExpiryCutoff,
  InMemorySessionTokens,
  type SessionTokenInfo,
  type SessionTokens,
} from '../handoff/session-tokens.js';
// Knowledge sources (docs/knowledge.md): the contract of the store of sources and their pages, with
// its in-memory reference; SQLite and PostgreSQL implement it in their packages.
export { InMemorySourceStore } from '../knowledge/in-memory-source-store.js';
export {
  KNOWLEDGE_PAGE_COLUMNS,
  KNOWLEDGE_SOURCE_COLUMNS,
  type KnowledgePageRow,
  type KnowledgeSourceRow,
  knowledgePageOfRow,
  knowledgePageValues,
  knowledgeSourceOfRow,
  knowledgeSourceValues,
} from '../knowledge/source-rows.js';
export type {
  KnowledgePage,
  KnowledgeSource,
  KnowledgeSourceKind,
  KnowledgeSourceStatus,
  SourceStore,
} from '../knowledge/source-store.js';
// Language models: the contract a model binding implements.
export type {
  LanguageModel,
  ModelContentPart,
  ModelMessage,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ModelTool,
  ModelToolCall,
  ModelToolCallPart,
  ModelToolResultPart,
  ModelUsage,
} from '../model/language-model.js';
export type {
  ChannelConversation,
  ChannelDelivery,
  ChannelIdentity,
  ChannelPayload,
  InboundReceipt,
} from '../protocol/channel.js';
export type { ChannelInbox, ChannelInboxEntry, ChannelInboxInput } from '../protocol/channel-inbox.js';
export type { ChannelDeliveryInput, ChannelStore } from '../protocol/channel-store.js';
export type { ChunkId } from '../protocol/chunk-id.js';
export type { BlacklistData, ExploreConstraintsData } from '../protocol/explore-constraints-data.js';
export type { FilterPoint, FilterPredicate } from '../protocol/filter.js';
export type { HandBackTarget, HandoffOutcome, OperatorRef } from '../protocol/handoff.js';
export type { HandoffEvent, HandoffOutbox, OutboxDelivery } from '../protocol/handoff-outbox.js';
// Session stores: one turn at a time per session, and the record of a session never seen.
export { duplicateDelivery, receiptKey } from '../session/duplicate-delivery.js';
export { KeyedMutex } from '../session/keyed-mutex.js';
export {
  emptySessionRecord,
  type HistoryQuery,
  type ReleaseLock,
  type SessionCommit,
  type SessionRecord,
  type SessionStore,
} from '../session/session-store.js';
// Vector stores: the contract, and the id order and the opaque scroll cursor every store uses.
export { compareIds, decodeOffset, encodeOffset, scrollPage } from '../vector/in-memory-vector-store.js';
export type {
  VectorRecord,
  VectorScrollPage,
  VectorScrollRequest,
  VectorSearchRequest,
  VectorStore,
} from '../vector/vector-store.js';
// Tree versions and environments (docs/versions.md): the contract of their store, its in-memory
// reference, and the helpers every store and the CLI share.
export {
  decideExperiment,
  EXPERIMENT_METHOD,
  type ExperimentDecision,
  type ExperimentDesign,
  experimentSampleSize,
  normalCdf,
  normalQuantile,
  twoProportionZ,
  type VariantOutcome,
} from '../versions/experiment-decision.js';
export { assignVariant, checkSplit, type ExperimentVariant } from '../versions/experiment-split.js';
export { InMemoryVersionStore } from '../versions/in-memory-version-store.js';
export { type PromoteRequest, promoteVariant } from '../versions/promote-variant.js';
export { publishedFigures, rollbackTarget } from '../versions/rollback-target.js';
export { sha256, treeVersionOf, type VersionContent } from '../versions/tree-version.js';
export { type VariantFigures, type VariantTotals, variantFigures } from '../versions/variant-figures.js';
export { versionDiff } from '../versions/version-diff.js';
export {
  ENVIRONMENT_CHANGE_COLUMNS,
  type EnvironmentChangeRow,
  environmentChangeOfRow,
  environmentChangeValues,
  TREE_VERSION_COLUMNS,
  type TreeEnvironmentRow,
  type TreeVersionRow,
  treeEnvironmentOfRow,
  treeVersionOfRow,
  treeVersionValues,
} from '../versions/version-rows.js';
export {
  type EnvironmentChange,
  type EnvironmentExperiment,
  NO_GATE,
  type PublishGate,
  type RoutingFigures,
  type TreeEnvironment,
  type TreeVersion,
  type VersionStore,
} from '../versions/version-store.js';
