import type { Tracer } from '@opentelemetry/api';
import type { TreeAgent } from '@treeagent/core';
import type { cors } from 'hono/cors';
import type { AnalyticsOptions } from './analytics/analytics-options.js';
import type { RouteArea } from './areas/route-area.js';
import type { SessionExpiryOptions } from './auth/session-expiry.js';
import type { SessionTokens } from './auth/session-tokens.js';
import type { ChannelsOption } from './channels/channels-options.js';
import type { TreeEditorSource } from './editor/tree-editor-source.js';
import type { WidgetServerOptions } from './embed/widget-options.js';
import type { ServerLogger } from './errors/error-response.js';
import type { HandoffOptions } from './handoff/handoff-service.js';
import type { TrustProxyOptions } from './http/client-address.js';
import type { StreamLimitOptions } from './http/event-streams.js';
import type { MessageLimitOptions } from './http/message-limits.js';
import type { RateLimitOptions } from './http/rate-limit.js';
import type { OperatorOptions } from './operators/operator-auth.js';
import type { SourcesOptions } from './sources/sources-options.js';
import type { VersionRoutesOptions } from './versions/version-routes-options.js';
import type { WebOptions } from './web-app/web-routes.js';

/** Limits on what clients may send. */
export interface ServerLimits {
  /** Largest JSON request body, in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Largest file upload (the whole multipart body), in bytes. Default 10 MiB. */
  maxUploadBytes?: number;
  /** Longest user message, in characters. Default 10 000. */
  maxMessageLength?: number;
  /** Most attachments per message. Default 10. */
  maxAttachments?: number;
  /**
   * Most bytes of files one session may store (uploads): past it an upload is 413
   * `QUOTA_EXCEEDED`. Default 50 MiB. Needs a file store with `usage` (the SQLite and PostgreSQL
   * ones, and the in-memory one).
   */
  sessionQuotaBytes?: number;
  /** Most bytes of files all sessions together may store. Default 1 GiB. */
  totalQuotaBytes?: number;
}

/** Options of `createApp`. */
export interface CreateAppOptions {
  /** The agent the server exposes. */
  agent: TreeAgent;
  /**
   * API keys for server access. When set, every request under `/api` and `/v1` needs
   * `Authorization: Bearer <key>` with one of them. `/health`, `/ready`, `/metrics` and the web
   * page stay open.
   */
  apiKeys?: string[];
  /**
   * Analytics, review and the unmatched-cluster actions (where to query, which files to edit): behind
   * the operator login (`operators`), personal data export and deletion behind the admin role.
   */
  analytics?: AnalyticsOptions;
  /**
   * The tree's versions and environments: `/api/v1/versions` (list, diff, gated publish, rollback,
   * experiments) behind the admin role, and the editor's Versions panel (docs/versions.md).
   */
  versions?: VersionRoutesOptions;
  /**
   * Knowledge sources (websites, sitemaps, files) of the query nodes, refreshed on a schedule: the
   * Sources page and `/api/v1/sources`, behind the operator login (docs/knowledge.md).
   */
  sources?: SourcesOptions;
  /** Where session token hashes live. Default: in memory. */
  sessionTokens?: SessionTokens;
  /**
   * Debug mode: the trace in responses, every engine event in streams, `POST /api/v1/route`,
   * chunk texts in `GET /api/v1/tree`, and engine error messages on 5xx. Never in production.
   */
  debug?: boolean;
  /** CORS for browsers on other origins (Hono's `cors` options). Default: no CORS headers. */
  cors?: NonNullable<Parameters<typeof cors>[0]>;
  limits?: ServerLimits;
  /**
   * User messages per session (default 30 a minute) and per client address (default 120 a minute),
   * on the JSON API and the OpenAI endpoint: past either, 429 `RATE_LIMITED` with `Retry-After`,
   * nothing stored. The message length is `limits.maxMessageLength`.
   */
  messageLimit?: MessageLimitOptions;
  /**
   * Caps on the open event streams (session, operator console, editor): per session token (default
   * 4), per operator (10), per client address (20), per process (1000) — over one, 429
   * `RATE_LIMITED` with `Retry-After` — and an idle timeout (15 minutes without an event; pages
   * reconnect). An operator's streams end at logout and when the directory removes or changes them.
   */
  streams?: StreamLimitOptions;
  /** Per-client rate limit on `/api` and `/v1`. Default: none. */
  rateLimit?: RateLimitOptions;
  /**
   * Limit on failed authentication (answers 401, and 403 to a request with a wrong session token; not
   * a signed-in operator's 403 for a route of their role) per client address: past `max` failures in `windowMs`, every request of that client under `/api`
   * and `/v1` gets 429 `RATE_LIMITED` until the window ends. Default 20 per minute; `false` turns
   * it off (behind a proxy, set `trustProxy`).
   */
  authFailureLimit?: RateLimitOptions | false;
  /**
   * Session lifetime: idle and absolute expiry (the absolute one is the retention of conversation
   * data), the background sweep that deletes expired sessions' history, state, files and token, and
   * the per-client limit on `POST /api/v1/sessions` (`createLimit`, default 30 per minute per
   * address; `false` turns it off). Expiry needs a `SessionTokens` with `info`/`claimExpired` (all
   * three shipped ones have them).
   */
  sessions?: SessionExpiryOptions & { createLimit?: RateLimitOptions | false };
  /**
   * Host names the server answers to (the `Host` header, without the port); other hosts get 403
   * `HOST_NOT_ALLOWED`, which defeats DNS rebinding. An entry starting with `.` allows its
   * subdomains. Default for `createApp`: any host; `serve()` bound to a loopback address defaults
   * to the loopback names (`LOOPBACK_HOSTS`).
   */
  allowedHosts?: string[];
  /**
   * The reverse proxies in front of the server: their addresses and CIDR ranges (`['127.0.0.1']`,
   * `['10.0.0.0/8']`), or `{ addresses, header }` to read RFC 7239 `Forwarded` instead of
   * `X-Forwarded-For`. A request whose direct peer is one of them counts against the right-most
   * address of that header that is not a proxy (every per-address limit: failed authentication,
   * session creation, messages, `rateLimit`); from any other peer the header is ignored. Default:
   * none — the socket's address, so behind a proxy every client would share the proxy's limits.
   */
  trustProxy?: readonly string[] | TrustProxyOptions;
  /** Tracer for the turn spans. Default: `trace.getTracer('@treeagent/server')` from the global provider. */
  tracer?: Tracer;
  /** Serve `/metrics` (Prometheus). Default true. */
  metrics?: boolean;
  /**
   * The web app: static files served from `directory` (absolute, or relative to the working
   * directory), `/` being its `index.html`; `WEB_DIRECTORY` is the app shipped with the server.
   * Paths under `/api` and `/v1` are never served from it. See `WebOptions`.
   */
  web?: WebOptions;
  /**
   * The deployment's language (`it`, `en`, `es`: a folder of `packages/server/locales`): the web
   * app's pages and the customer-visible messages of the server use it whatever the browser asks.
   * Without it, the page's `?lang=` and the browser choose, then English (docs/languages.md).
   */
  locale?: string;
  /**
   * The embeddable widget (docs/widget.md): `/widget.js` and `/widget.mjs`, CORS on the session
   * routes for `origins` (any other origin refused), and signed user ids (`identitySecret`).
   */
  widget?: WidgetServerOptions;
  /**
   * The people who take conversations over and administer the server: who they are
   * (`directory`), where their logins and the audit log live. Without it the operator routes answer
   * 404. See docs/security.md (operators) and docs/handoff.md.
   */
  operators?: OperatorOptions;
  /**
   * Human handoff (docs/handoff.md): where the queue of handed-off sessions lives, the bus that fans
   * events out between processes (`PostgresEventBus` with several processes), the webhook. The
   * engine's handoff works without it (in-memory queue and bus, no webhook); the console needs
   * `operators`.
   */
  handoff?: HandoffOptions;
  /**
   * The channels users reach the agent through (docs/channels.md): route channels — the web chat
   * (`webChat()`: `/api/v1/sessions`, what the chat page and the widget call) and the
   * OpenAI-compatible endpoint (`openAiCompatible()`: `/v1`) — and messaging channels (Telegram,
   * Meta, Slack, Teams, …: each answers its platform's webhook at `/channels/<name>/webhook` and
   * sends through a durable outbox). A list is exactly the server's channels
   * (`[webChat(), telegram]`: no `/v1`, 404); `{ channels, ...delivery settings }` also sets the
   * outbox, and, when it lists messaging channels only, keeps the web chat and the OpenAI endpoint
   * (`defaults`). Default: `[webChat(), openAiCompatible()]`.
   */
  channels?: ChannelsOption;
  /** Where server-side failures are reported. Default: `console`. */
  logger?: ServerLogger;
  /**
   * The tree editor's API under `/api/v1/editor` and its page `/editor` (docs/editor.md): reads,
   * checks, routes and saves the tree file of `source`. Only an admin may call it when `operators`
   * are configured; without operators it needs `debug` (as `treeagent dev` on a loopback address
   * runs), and `createApp` refuses it otherwise. Never reachable with a session token.
   */
  editor?: TreeEditorSource;
  /** How long `GET /ready` waits for the tree and the session store. Default 2000 ms. */
  readyTimeoutMs?: number;
  /**
   * Route areas of your own (a messaging channel's webhook, a custom endpoint), declared with
   * `routeArea({ prefix, access, routes })`: mounted after the server's own, each behind the guard of
   * its access rule and the server's guards of its path (outside `/api` and `/v1`: the limits and
   * body limits, not the API key). Their routes get the agent and `turns`, which runs a customer's
   * message like the message route. See the README, "Route areas and channels".
   */
  routes?: readonly RouteArea[];
}

/** Default `sessions.createLimit`: 30 new sessions per client address per minute. */
export const DEFAULT_SESSION_CREATE_LIMIT: RateLimitOptions = { windowMs: 60_000, max: 30 };

/** Default `authFailureLimit`: 20 failed authentications per client address per minute. */
export const DEFAULT_AUTH_FAILURE_LIMIT: RateLimitOptions = { windowMs: 60_000, max: 20 };

/** The limits with their defaults applied. */
export type ResolvedLimits = Required<ServerLimits>;

export function resolveLimits(limits: ServerLimits = {}): ResolvedLimits {
  return {
    maxBodyBytes: limits.maxBodyBytes ?? 1024 * 1024,
    maxUploadBytes: limits.maxUploadBytes ?? 10 * 1024 * 1024,
    maxMessageLength: limits.maxMessageLength ?? 10_000,
    maxAttachments: limits.maxAttachments ?? 10,
    sessionQuotaBytes: limits.sessionQuotaBytes ?? 50 * 1024 * 1024,
    totalQuotaBytes: limits.totalQuotaBytes ?? 1024 * 1024 * 1024,
  };
}
