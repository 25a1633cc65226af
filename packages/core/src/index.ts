// Tree definition

// Context
export { Blacklist, type BlacklistData, type BlacklistKind } from './context/blacklist.js';
export type { Context, CurrentNode, Metadata, TreeAgentInput } from './context/context.js';
export {
  ExploreConstraints,
  type ExploreConstraintsData,
  ExploreStrategy,
} from './context/explore-strategy.js';
export { type Serializable, SessionState } from './context/session-state.js';
// Contracts and reference implementations
export { ConcatEmbedder, type ConcatPart } from './embedding/concat-embedder.js';
export { embedTexts } from './embedding/embed-texts.js';
export type { Embedder, EmbeddingVector, EmbedOptions } from './embedding/embedder.js';
export { type EmbeddingCache, InMemoryEmbeddingCache } from './embedding/embedding-cache.js';
export { FileEmbeddingCache } from './embedding/file-embedding-cache.js';
export { HashedEmbedder, type HashedEmbedderOptions } from './embedding/hashed-embedder.js';
export { concatScaled, cosineSimilarity, norm, normalize } from './embedding/vector-math.js';
// Engine
export type { AgentOutput, OutputMessage, Source, TurnStatus } from './engine/agent-output.js';
export type { AgentEvent, AgentEventType, ExploreAction, ExploreCandidate } from './engine/events.js';
export {
  type ContentPart,
  placeholdersIn,
  sourcesFromChunks,
  splitDynamicContent,
} from './engine/message-content.js';
export type { RouteOptions, RouteResult, ThresholdOverride } from './engine/route.js';
export {
  type RoutingThreshold,
  type SendOptions,
  TreeAgent,
  type TreeAgentOptions,
} from './engine/tree-agent.js';
export {
  TreeAgentError,
  type TreeAgentErrorCode,
  type TreeAgentErrorOptions,
} from './errors/tree-agent-error.js';
// Routing evaluation
export * from './evaluation/index.js';
export {
  type CalibrationOptions,
  calibrateThresholds,
  DEFAULT_CALIBRATION_KEEP,
  type ThresholdCalibration,
  type ThresholdSource,
  withCalibratedThresholds,
  withThresholds,
} from './explore/calibrate-thresholds.js';
export { FileAgent } from './files/file-agent.js';
export type { FileMetadata, FileOrigin } from './files/file-metadata.js';
export type { FileStore, NewFile } from './files/file-store.js';
export { InMemoryFileStore } from './files/in-memory-file-store.js';
export { LocalFileStore } from './files/local-file-store.js';
export * from './filter/index.js';
// Ingestion
export * from './ingest/index.js';
// Lint
export { type LintableEmbedder, type LintOptions, type LintWarning, lintTree } from './lint/lint-tree.js';
export type { HistoryEntry } from './memory/history.js';
export { type HistoryLoader, type HistoryOptions, MemoryAgent } from './memory/memory-agent.js';
export type {
  JsonSchema,
  LanguageModel,
  ModelContentPart,
  ModelMessage,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ModelUsage,
} from './model/language-model.js';
export { InMemorySessionStore } from './session/in-memory-session-store.js';
export { KeyedMutex } from './session/keyed-mutex.js';
export {
  emptySessionRecord,
  type HistoryQuery,
  type ReleaseLock,
  type SessionCommit,
  type SessionRecord,
  type SessionStore,
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
export type { Chunk, ChunkDefinition, ChunkId } from './tree/chunk.js';
export {
  ALL_CALLBACKS,
  CALLBACKS_BY_TYPE,
  type CallbackName,
  COMMON_PROPERTIES,
  MessageType,
  NODE_TYPES,
  type NodeType,
  Outcome,
  PROPERTIES_BY_TYPE,
  Step,
} from './tree/constants.js';
export { defineComponent } from './tree/define-component.js';
export { DEFAULT_SIMILARITY_THRESHOLD, defineTree } from './tree/define-tree.js';
export { createLinks, type Links } from './tree/links.js';
export { type NestedNode, nestedTree } from './tree/nested-tree.js';
export type * from './tree/node-definition.js';
export type * from './tree/specials.js';
export { Tree } from './tree/tree.js';
export { type CallbackMap, definitionFromJSON, definitionToJSON, type TreeJSON } from './tree/tree-json.js';
export type { EffectiveNodeType, SelfScope, TreeNode } from './tree/tree-node.js';
export { formatProblem, type TreeProblem } from './tree/tree-problem.js';
export { TreeValidationError } from './tree/tree-validation-error.js';
export {
  compareIds,
  decodeOffset,
  encodeOffset,
  InMemoryVectorStore,
} from './vector/in-memory-vector-store.js';
export type {
  RetrievedChunk,
  VectorRecord,
  VectorScrollPage,
  VectorScrollRequest,
  VectorSearchRequest,
  VectorStore,
} from './vector/vector-store.js';
