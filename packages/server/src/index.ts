/** HTTP server for Tree Agent: JSON and streaming API, OpenAI-compatible endpoint, metrics, tracing. */

export {
  type AuditEntry,
  type AuditLog,
  type AuditQuery,
  type AuditRecord,
  type AuditValue,
  auditLimit,
  type BusEvent,
  type EventBus,
  type HandoffNote,
  type HandoffOutbox,
  type HandoffQueue,
  InMemoryAuditLog,
  InMemoryEventBus,
  InMemoryHandoffQueue,
  InMemoryOperatorSessions,
  type OperatorSessionRecord,
  type OperatorSessions,
  type OutboxDelivery,
  type QueueEntry,
  type QueueQuery,
} from '@treeagent/core/adapter';
export type { AnalyticsOptions } from './analytics/analytics-options.js';
export {
  type ExportedSession,
  PersonalData,
  type PersonalDataActor,
  type PersonalDataDeletion,
  type PersonalDataExport,
  type PersonalDataStores,
  type PersonalDataSubject,
  USER_ID_PATTERN,
  userReference,
} from './analytics/personal-data.js';
export {
  addChunksToTree,
  appendUtterances,
  type ChunksWritten,
  chunksFileOf,
} from './analytics/tree-file-edits.js';
export type {
  AuditEntryView,
  AuditLogResponse,
  ClientEvent,
  ClientOutput,
  ClusterActionResponse,
  ComparisonResponse,
  ConversationsResponse,
  CreatedSession,
  CreateSessionRequest,
  EditorAmbiguityResponse,
  EditorAmbiguousPair,
  EditorCheckResponse,
  EditorHeat,
  EditorLintFinding,
  EditorProblem,
  EditorRouteResponse,
  EditorSaveResponse,
  EditorState,
  EditorSuggestionsResponse,
  EditorThresholdSuggestion,
  EffectResponse,
  HandBackRequest,
  HandoffDetail,
  HandoffListResponse,
  HandoffNoteView,
  HandoffSummary,
  HistoryResponse,
  MessageRequest,
  NodeSimilarity,
  OperatorEvent,
  OperatorLoginRequest,
  OperatorMessageRequest,
  OperatorRoleName,
  OperatorSessionView,
  OperatorView,
  RouteResponse,
  SessionEvent,
  SessionEventHandoff,
  StreamErrorEvent,
  TranscriptResponse,
  TreeView,
  TreeViewNode,
  UnmatchedCluster,
  UnmatchedResponse,
  UploadedFile,
  WebhookDeadLettersResponse,
  WebhookDeadLetterView,
  WebhookRetryResponse,
} from './api-types.js';
export { createApp, type ShutdownOptions, type TreeAgentApp } from './app.js';
export { type CreateAppOptions, DEFAULT_AUTH_FAILURE_LIMIT, type ServerLimits } from './app-options.js';
export { SESSION_TOKEN_HEADER } from './auth/session-access.js';
export { InMemorySessionTokens, type SessionTokens } from './auth/session-tokens.js';
export type { ChannelsOptions } from './channels/channels-options.js';
export {
  TreeEditConflict,
  type TreeEditorFile,
  type TreeEditorSource,
} from './editor/tree-editor-source.js';
export { ApiError, type ApiErrorCode, type ErrorBody } from './errors/api-error.js';
export { statusOfEngineCode } from './errors/engine-error.js';
export type { ServerLogger } from './errors/error-response.js';
export type { OpenAiErrorBody } from './errors/openai-error.js';
export { type WriteFileAtomicOptions, writeFileAtomic } from './files/write-file-atomic.js';
export type { HandoffOptions } from './handoff/handoff-service.js';
export {
  type HandoffWebhookEvent,
  type HandoffWebhookOptions,
  signWebhook,
  WEBHOOK_SIGNATURE_HEADER,
} from './handoff/handoff-webhook.js';
export { isLoopback, LOOPBACK_HOSTS } from './http/allowed-hosts.js';
export { type ForwardedHeader, type TrustProxyOptions, trustedProxies } from './http/client-address.js';
export {
  DEFAULT_STREAM_LIMITS,
  EventStreams,
  type OpenStream,
  type StreamLimitOptions,
  type StreamOwner,
} from './http/event-streams.js';
export {
  DEFAULT_ADDRESS_MESSAGE_LIMIT,
  DEFAULT_SESSION_MESSAGE_LIMIT,
  type MessageLimitOptions,
} from './http/message-limits.js';
export type { RateLimitOptions } from './http/rate-limit.js';
export {
  CONVERSATION_PREFIX,
  OPENAI_SESSION_PREFIX,
  openAiEngineSessionId,
  SESSION_ID_HEADER,
} from './openai/chat-session.js';
export type { TreeAgentExtension } from './openai/completion-objects.js';
export { DEFAULT_QUEUED_NOTICE } from './openai/handoff-reply.js';
export {
  loadOperatorsFile,
  OPERATOR_ROLES,
  type OperatorAccount,
  type OperatorDirectory,
  type OperatorDirectoryChange,
  type OperatorIdentity,
  type OperatorRole,
  operatorDirectory,
  parseOperatorAccounts,
  roleAllows,
  type UpdatableOperatorDirectory,
} from './operators/operator-accounts.js';
export {
  type AuditDetails,
  DEFAULT_OPERATOR_LOGIN_TTL_MS,
  OPERATOR_COOKIE,
  OPERATOR_TOKEN_HEADER,
  OperatorAuth,
  type OperatorOptions,
  operatorOf,
} from './operators/operator-auth.js';
export { hashOperatorPassword, verifyOperatorPassword } from './operators/operator-password.js';
export { WEB_CONTENT_SECURITY_POLICY, type WebOptions } from './routes/web-routes.js';
export { type RunningServer, type ServeOptions, serve } from './serve.js';
export type { SourcesOptions } from './sources/sources-options.js';
export { TRACER_NAME } from './telemetry/turn-tracing.js';
export type { DrainResult } from './turns/turn-tracker.js';
export { WEB_DIRECTORY } from './web-directory.js';
