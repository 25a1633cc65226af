/**
 * `@treeagent/core/client`: what a client of the server — the web app in a browser — may import from
 * the core: the types of the turn protocol (events, outputs, history, files) and the pure helpers
 * that read them. Nothing here imports a Node module, so a browser bundle can take it whole;
 * `client.test.ts` checks that for every module it reaches.
 */

export type {
  AnalyticsReport,
  ConversationSummary,
  StoredTurnFact,
  UnmatchedMessage,
} from './analytics/analytics-store.js';
export { type ContentPart, placeholdersIn, splitDynamicContent } from './engine/turn/message-content.js';
export type { TreeAgentErrorCode } from './errors/tree-agent-error.js';
export type { ChunkId } from './protocol/chunk-id.js';
export { type ErrorSummary, formatErrorSummary } from './protocol/error-summary.js';
export {
  type AgentEvent,
  type AgentEventType,
  type AgentOutput,
  type ExploreAction,
  type ExploreCandidate,
  isUserFacingEvent,
  type TurnStatus,
  USER_FACING_EVENT_TYPES,
} from './protocol/events.js';
export type { FileMetadata, FileOrigin } from './protocol/file-metadata.js';
export type { FormSlotReport } from './protocol/form-slot-report.js';
export type {
  HandBackTarget,
  HandoffOutcome,
  HandoffRequest,
  HandoffState,
  HandoffTransition,
  OperatorRef,
} from './protocol/handoff.js';
export {
  type HandoffNotice,
  type HandoffNoticeKey,
  type HandoffNoticeSource,
  handoffNotice,
} from './protocol/handoff-notice.js';
export type { HistoryEntry } from './protocol/history-entry.js';
export type { LocalizedText } from './protocol/localized-text.js';
export type { OutputMessage, Source } from './protocol/output-message.js';
export type { TurnDecisionFact, TurnFact, TurnFactStatus } from './protocol/turn-fact.js';
export { CALLBACKS_BY_TYPE, COMMON_PROPERTIES, PROPERTIES_BY_TYPE } from './tree/constants.js';
export { TREE_DOCUMENT_SCHEMA } from './tree/tree-document-schema.js';
export {
  CONSTANT_CALLBACKS,
  TREE_DOCUMENT_FORMAT,
  TREE_DOCUMENT_VERSION,
  type TreeDocument,
  type TreeDocumentComponent,
  type TreeDocumentNode,
} from './tree/tree-document-types.js';
