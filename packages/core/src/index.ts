/**
 * `@treeagent/core`: what a tree author writes — `TreeAgent` and its options, `defineTree`,
 * `defineComponent`, `defineTool`, the node definitions and their callbacks, the `Context` callbacks
 * receive, the events and outputs of a turn, the errors an author catches, and the ready stores and
 * embedders an agent is built with. Other audiences import a subpath (docs/architecture.md, "Public
 * surface"): `/adapter`, `/filter`, `/privacy`, `/analytics`, `/evaluation`, `/document`, `/ingest`, `/client`,
 * `/test`, `/conformance`. Every name here is listed in `api/index.review.md` with its reason.
 */

export { Blacklist, type BlacklistKind } from './context/blacklist.js';
export type { Context, CurrentNode, Metadata, TreeAgentInput } from './context/context.js';
export { ExploreConstraints, ExploreStrategy } from './context/explore-strategy.js';
export { type Serializable, SessionState } from './context/session-state.js';
export { ConcatEmbedder, type ConcatPart } from './embedding/concat-embedder.js';
export type { RoutingLanguage } from './embedding/default-embedder.js';
export { InMemoryEmbeddingCache } from './embedding/embedding-cache.js';
export { FileEmbeddingCache } from './embedding/file-embedding-cache.js';
export {
  HashedEmbedder,
  type HashedEmbedderOptions,
  type SparseVector,
} from './embedding/hashed-embedder.js';
export type { NearestNode, WeightedText } from './engine/agent/nearest-nodes.js';
export type { RouteOptions, RouteResult, ThresholdOverride } from './engine/agent/route.js';
export type { RoutingThreshold } from './engine/agent/tree-agent.js';
export { type SendOptions, TreeAgent, type TreeAgentOptions } from './engine/agent/tree-agent.js';
export type { MissingModels, ModelHelp } from './engine/runtime/missing-models.js';
export type { FitMode, SpaceStatus } from './engine/runtime/space-fitter.js';
export { summarizeError } from './errors/summarize-error.js';
export {
  type BackendErrorDetails,
  TreeAgentError,
  type TreeAgentErrorCode,
  type TreeAgentErrorDetails,
  type TreeAgentErrorDetailsByCode,
  type TreeAgentErrorOptions,
} from './errors/tree-agent-error.js';
export type { ExploreScan, ExploreThreads } from './explore/chunk-index.js';
export { CHUNK_FILE_KEY, FileAgent, type FileAgentInit } from './files/file-agent.js';
export { InMemoryFileStore } from './files/in-memory-file-store.js';
export { LocalFileStore } from './files/local-file-store.js';
export { type HistoryLoader, type HistoryOptions, MemoryAgent } from './memory/memory-agent.js';
export { eldLanguageDetector } from './model/eld-language-detector.js';
export type { LanguageDetector } from './model/language-detector.js';
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
export type { FileMetadata, FileOrigin } from './protocol/file-metadata.js';
export type { HandoffRequest, HandoffState, HandoffTransition } from './protocol/handoff.js';
export type { HistoryEntry } from './protocol/history-entry.js';
export type { JsonSchema } from './protocol/json-schema.js';
export type { LocalizedText } from './protocol/localized-text.js';
export type { OutputMessage, Source } from './protocol/output-message.js';
export type { RetrievedChunk } from './protocol/retrieved-chunk.js';
export { InMemorySessionStore } from './session/in-memory-session-store.js';
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
export {
  defineNode,
  type EmitAfterCallback,
  type EmptyAfterCallback,
  type LlmAfterCallback,
  type QueryAfterCallback,
} from './tree/define-node.js';
export { DEFAULT_SIMILARITY_THRESHOLD, defineTree } from './tree/define-tree.js';
export { createLinks, type Links } from './tree/links.js';
export { textIn } from './tree/localized-text.js';
export { type NestedNode, nestedTree } from './tree/nested-tree.js';
export type {
  AfterCallback,
  AfterRunCallback,
  AgentNodeDefinition,
  BeforeCallback,
  BeforeRunCallback,
  ComponentDefinition,
  ComponentNodeDefinition,
  ComponentNodeDefinitionItem,
  EmitCallback,
  EmitNodeDefinition,
  EmptyNodeDefinition,
  ExtendMessageCallback,
  FallbackCallback,
  GuardrailNodeDefinition,
  GuardrailWarning,
  HeadNodeDefinition,
  InitCallback,
  LlmNodeDefinition,
  NodeBase,
  NodeDefinition,
  PromptCallback,
  QueryCallback,
  QueryNodeDefinition,
  ResponseFormatCallback,
  RootNodeDefinition,
  Self,
  SwitchNodeDefinition,
  TailNodeDefinition,
  TreeDefinition,
} from './tree/node-definition.js';
export type {
  AfterRunSpecial,
  AfterSpecial,
  BeforeRunSpecial,
  EmitAfterSpecial,
  EmptyAfterSpecial,
  ExtendMessageSpecial,
  FallbackSpecial,
  LlmAfterSpecial,
  PromptSpecial,
  QueryAfterSpecial,
} from './tree/specials.js';
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
export type { EffectiveNodeType, SelfScope, TreeNode } from './tree/tree-node.js';
export { formatProblem, type TreeProblem } from './tree/tree-problem.js';
export { TreeValidationError } from './tree/tree-validation-error.js';
export { InMemoryVectorStore } from './vector/in-memory-vector-store.js';
