/**
 * `@treeagent/server`: what a server user calls — `createApp` and `serve` with their options, the
 * operator accounts and handoff settings, the personal data operations, the tree editor's source.
 * The HTTP API's wire types are in `@treeagent/server/api`; the engine's names come from
 * `@treeagent/core` and its subpaths, never from here. Every name is listed in `api/index.review.md`.
 */

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
export { createApp, type ShutdownOptions, type TreeAgentApp } from './app.js';
export { type CreateAppOptions, DEFAULT_AUTH_FAILURE_LIMIT, type ServerLimits } from './app-options.js';
export { type RouteAccess, type RouteArea, type RouteAreaContext, routeArea } from './areas/route-area.js';
export { InMemorySessionTokens, type SessionTokens } from './auth/session-tokens.js';
export type {
  ChannelDeliveryOptions,
  ChannelInboxOptions,
  ChannelsOption,
  ChannelsOptions,
} from './channels/channels-options.js';
export {
  type ChannelRoute,
  isRouteChannel,
  type RouteChannel,
  type RouteChannelCapabilities,
  routeChannel,
  type ServerChannel,
} from './channels/route-channel.js';
export type { CallbacksModuleSource } from './editor/callbacks-module-source.js';
export {
  TreeEditConflict,
  type TreeEditorFile,
  type TreeEditorSource,
} from './editor/tree-editor-source.js';
export { signUserId } from './embed/widget-identity.js';
export type { WidgetServerOptions } from './embed/widget-options.js';
export { ApiError } from './errors/api-error.js';
export { statusOfEngineCode } from './errors/engine-error.js';
export type { ServerLogger } from './errors/error-response.js';
export { type WriteFileAtomicOptions, writeFileAtomic } from './files/write-file-atomic.js';
export type { HandoffOptions } from './handoff/handoff-service.js';
export { type HandoffWebhookOptions, signWebhook } from './handoff/handoff-webhook.js';
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
export { openAiEngineSessionId } from './openai/chat-session.js';
export { DEFAULT_QUEUED_NOTICE } from './openai/handoff-reply.js';
export { type OpenAiCompatibleOptions, openAiCompatible } from './openai/openai-channel.js';
export type { OidcOptions } from './operators/oidc/oidc-options.js';
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
  OperatorAuth,
  type OperatorOptions,
  operatorOf,
} from './operators/operator-auth.js';
export { hashOperatorPassword, verifyOperatorPassword } from './operators/operator-password.js';
export { type RunningServer, type ServeOptions, serve } from './serve.js';
export { type WebChatOptions, webChat } from './sessions/web-chat-channel.js';
export type { SourcesOptions } from './sources/sources-options.js';
export { TRACER_NAME } from './telemetry/turn-tracing.js';
export type { CustomerMessage, CustomerTurns } from './turns/customer-turns.js';
export type { StartedTurn } from './turns/turn-runner.js';
export type { DrainResult } from './turns/turn-tracker.js';
export type {
  PublishGateOutcome,
  PublishGateRequest,
  VersionRoutesOptions,
} from './versions/version-routes-options.js';
export { WEB_CONTENT_SECURITY_POLICY, type WebOptions } from './web-app/web-routes.js';
export type { WebView } from './web-app/web-settings.js';
export { WEB_DIRECTORY } from './web-directory.js';
