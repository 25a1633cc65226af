/**
 * `@treeagent/server/api`: the HTTP API on the wire — the JSON bodies the routes take and return, the
 * events of its streams, the error bodies, and the names of its headers — for clients of a server
 * (the web app, a widget, another service). The server itself (`createApp`, `serve` and their
 * options) is the package's root.
 */

export type {
  ApiErrorCode,
  ApiErrorDetails,
  AuditEntryView,
  AuditLogResponse,
  CallbackDiagnostic,
  CallbackRequestBody,
  CallbackRequestView,
  CallbacksModuleState,
  CallbacksSaveResponse,
  CallbacksTypeEnvironment,
  ClientEvent,
  ClientOutput,
  ClientToolCallEvent,
  ClientToolResultEvent,
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
  ErrorBody,
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
  SessionCallbackResponse,
  SessionEvent,
  SessionEventHandoff,
  StreamErrorEvent,
  TranscriptResponse,
  TreeView,
  TreeViewNode,
  UnmatchedCluster,
  UnmatchedResponse,
  UploadedFile,
  UserTypingRequest,
  WebhookDeadLettersResponse,
  WebhookDeadLetterView,
  WebhookRetryResponse,
} from './api-types.js';
export { SESSION_TOKEN_HEADER } from './auth/session-access.js';
export { callbackDiagnostics } from './editor/callback-diagnostics.js';
export type { OpenAiErrorBody } from './errors/openai-error.js';
export { type HandoffWebhookEvent, WEBHOOK_SIGNATURE_HEADER } from './handoff/handoff-webhook.js';
export { CONVERSATION_PREFIX, OPENAI_SESSION_PREFIX, SESSION_ID_HEADER } from './openai/chat-session.js';
export type { TreeAgentExtension } from './openai/completion-objects.js';
export { OPERATOR_COOKIE, OPERATOR_TOKEN_HEADER } from './operators/operator-auth.js';
