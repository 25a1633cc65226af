// Analytics and personal data
export type {
  AnalyticsReport,
  AnalyticsStore,
  ConversationQuery,
  ConversationSummary,
  ReportFilter,
  ResolvedReportFilter,
  StoredTurnFact,
  TurnLabel,
  UnmatchedMessage,
} from './analytics/analytics-store.js';
export { type ClusterOptions, clusterMessages, type MessageCluster } from './analytics/cluster-messages.js';
export { dayOf, resolveReportFilter } from './analytics/report-filter.js';
export { type TurnFactInput, turnFactOf } from './analytics/turn-fact-of.js';
export {
  BUILT_IN_DETECTORS,
  DETECTOR_NAMES,
  type Detector,
  type DetectorName,
  isValidCodiceFiscale,
  isValidIban,
  passesLuhn,
  type TextSpan,
} from './privacy/detectors.js';
export { redactCommit } from './privacy/redact-commit.js';
export {
  type Redaction,
  type RedactionOptions,
  type RedactionPattern,
  Redactor,
} from './privacy/redactor.js';
export type { TurnDecisionFact, TurnFact, TurnFactStatus } from './protocol/turn-fact.js';
// Tree definition

export { Blacklist, type BlacklistKind } from './context/blacklist.js';
export type { Context, CurrentNode, Metadata, TreeAgentInput } from './context/context.js';
export { ExploreConstraints, ExploreStrategy } from './context/explore-strategy.js';
export { type Serializable, SessionState } from './context/session-state.js';
// Contracts and reference implementations
export { ConcatEmbedder, type ConcatPart } from './embedding/concat-embedder.js';
export type { Embedder, EmbeddingVector, EmbedOptions } from './embedding/embedder.js';
export { type EmbeddingCache, InMemoryEmbeddingCache } from './embedding/embedding-cache.js';
export { FileEmbeddingCache } from './embedding/file-embedding-cache.js';
export {
  HashedEmbedder,
  type HashedEmbedderOptions,
  type SparseVector,
} from './embedding/hashed-embedder.js';
export { RECENT_EMBEDDINGS_DEFAULT, RecentEmbeddingCache } from './embedding/recent-embedding-cache.js';
export type {
  HandoffAction,
  HandoffUpdate,
  OperatorReply,
} from './engine/handoff-actions.js';
export { describeHandoff } from './engine/handoff-rows.js';
export type { NearestNode, WeightedText } from './engine/nearest-nodes.js';
export type { RouteOptions, RouteResult, ThresholdOverride } from './engine/route.js';
export {
  AUTO_FIT_MIN_CHUNKS,
  type FitMode,
  type FittedSpace,
  type SpaceFitRequest,
  type SpaceFitter,
  type SpaceStatus,
} from './engine/space-fitter.js';
export type { RoutingThreshold } from './engine/tree-agent.js';
export { type SendOptions, TreeAgent, type TreeAgentOptions } from './engine/tree-agent.js';
export { summarizeError } from './errors/summarize-error.js';
export {
  type BackendErrorDetails,
  TreeAgentError,
  type TreeAgentErrorCode,
  type TreeAgentErrorDetails,
  type TreeAgentErrorDetailsByCode,
  type TreeAgentErrorOptions,
} from './errors/tree-agent-error.js';
// Routing evaluation
export * from './evaluation/index.js';
export {
  type CalibrationOptions,
  calibrateThresholds,
  calibrationReads,
  DEFAULT_CALIBRATION_KEEP,
  type ThresholdCalibration,
  withCalibratedThresholds,
  withThresholds,
} from './explore/calibrate-thresholds.js';
export {
  type ExploreScan,
  type ExploreThreads,
  ROWS_IN_FILE_FROM,
  SIGN_SCAN_FROM,
  SIGN_WORKER_FROM,
} from './explore/chunk-index.js';
export { isAboveThreshold, SIMILARITY_TOLERANCE } from './explore/similarity-threshold.js';
export { CHUNK_FILE_KEY, FileAgent, type FileAgentInit } from './files/file-agent.js';
export type { FileStore, NewFile, NewFileStream } from './files/file-store.js';
export { InMemoryFileStore } from './files/in-memory-file-store.js';
export { LocalFileStore } from './files/local-file-store.js';
export * from './filter/index.js';
// Ingestion
export * from './ingest/index.js';
export type { LintThreshold } from './lint/lint-thresholds.js';
export {
  type LintableEmbedder,
  type LintOptions,
  type LintReport,
  lintReport,
  lintTree,
} from './lint/lint-tree.js';
// Lint
export type { LintWarning } from './lint/lint-warning.js';
export { type HistoryLoader, type HistoryOptions, MemoryAgent } from './memory/memory-agent.js';
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
} from './model/language-model.js';
export type {
  ChannelConversation,
  ChannelDelivery,
  ChannelIdentity,
  ChannelPayload,
  InboundReceipt,
} from './protocol/channel.js';
// Messaging channels: what a session store keeps for them (docs/channels.md)
export type { ChannelDeliveryInput, ChannelStore } from './protocol/channel-store.js';
export type { ChunkId } from './protocol/chunk-id.js';
export { MessageType, NODE_TYPES, type NodeType, Outcome, Step } from './protocol/constants.js';
export { type ErrorSummary, formatErrorSummary } from './protocol/error-summary.js';
export type {
  AgentEvent,
  AgentEventType,
  AgentOutput,
  ExploreAction,
  ExploreCandidate,
  ThresholdSource,
  TurnStatus,
} from './protocol/events.js';
// Context
export type { BlacklistData, ExploreConstraintsData } from './protocol/explore-constraints-data.js';
export type { FileMetadata, FileOrigin } from './protocol/file-metadata.js';
export type {
  HandBackTarget,
  HandoffOutcome,
  HandoffRequest,
  HandoffState,
  HandoffTransition,
  OperatorRef,
} from './protocol/handoff.js';
export type { HandoffEvent, HandoffOutbox, OutboxDelivery } from './protocol/handoff-outbox.js';
export type { HistoryEntry } from './protocol/history-entry.js';
export type { JsonSchema } from './protocol/json-schema.js';
// Engine
export type { OutputMessage, Source } from './protocol/output-message.js';
export type { RetrievedChunk } from './protocol/retrieved-chunk.js';
export { InMemorySessionStore } from './session/in-memory-session-store.js';
export type {
  HistoryQuery,
  ReleaseLock,
  SessionCommit,
  SessionRecord,
  SessionStore,
} from './session/session-store.js';
export type {
  BaseAfterOutput,
  BaseBeforeRunOutput,
  BaseEmitOutput,
  BaseExtendMessagePromptOutput,
  BaseFallbackOutput,
  BasePromptOutput,
  BaseQueryOutput,
  BaseResponseFormatOutput,
  EmitMessage,
  PromptSegment,
  TargetStep,
} from './tree/callback-outputs.js';
export type { Chunk, ChunkDefinition } from './tree/chunk.js';
export type { CallbackName } from './tree/constants.js';
export { defineComponent } from './tree/define-component.js';
export { DEFAULT_SIMILARITY_THRESHOLD, defineTree } from './tree/define-tree.js';
export { type ExtraChunks, withExtraChunks } from './tree/extra-chunks.js';
export { formatTreeDocument } from './tree/format-tree-document.js';
export { createLinks, type Links } from './tree/links.js';
export { type NestedNode, nestedTree } from './tree/nested-tree.js';
export type * from './tree/node-definition.js';
export type * from './tree/specials.js';
export {
  defineTool,
  type StandardJsonSchema,
  type StandardValidationResult,
  type ToolCallSpecial,
  type ToolDefinition,
  type ToolExecute,
  type ToolInput,
  type ToolParameters,
  type ToolSet,
} from './tree/tool-definition.js';
export { Tree } from './tree/tree.js';
export { type TreeSource, treeCallback } from './tree/tree-callback.js';
export {
  definitionToDocument,
  documentToDefinition,
  type NameCallback,
  referencedCallbacks,
} from './tree/tree-document.js';
export { TREE_DOCUMENT_SCHEMA } from './tree/tree-document-schema.js';
export {
  CONSTANT_CALLBACKS,
  TREE_DOCUMENT_FORMAT,
  TREE_DOCUMENT_VERSION,
  type TreeDocument,
  type TreeDocumentComponent,
  type TreeDocumentNode,
} from './tree/tree-document-types.js';
export { type CallbackMap, definitionFromJSON, definitionToJSON, type TreeJSON } from './tree/tree-json.js';
export type { EffectiveNodeType, SelfScope, TreeNode } from './tree/tree-node.js';
export { formatProblem, type TreeProblem } from './tree/tree-problem.js';
export { TreeValidationError } from './tree/tree-validation-error.js';
export { parseTreeDocument, validateTreeDocument } from './tree/validate-tree-document.js';
export { InMemoryVectorStore } from './vector/in-memory-vector-store.js';
export type {
  VectorRecord,
  VectorScrollPage,
  VectorScrollRequest,
  VectorSearchRequest,
  VectorStore,
} from './vector/vector-store.js';
