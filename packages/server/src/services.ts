import type { TreeAgent } from '@treeagent/core';
import type { AnalyticsStore } from '@treeagent/core/adapter';
import {
  type CreateAppOptions,
  DEFAULT_SESSION_CREATE_LIMIT,
  type ResolvedLimits,
  resolveLimits,
} from './app-options.js';
import type { RouteAreaContext } from './areas/route-area.js';
import { type ResolvedExpiry, resolveExpiry } from './auth/session-expiry.js';
import { InMemorySessionTokens, type SessionTokens } from './auth/session-tokens.js';
import type { ChannelService } from './channels/channel-service.js';
import type { ServerLogger } from './errors/error-response.js';
import { redactingLogger } from './errors/redacting-logger.js';
import { HandoffService } from './handoff/handoff-service.js';
import { EventStreams } from './http/event-streams.js';
import { FixedWindows } from './http/fixed-windows.js';
import { MessageLimits } from './http/message-limits.js';
import { checkLocale } from './i18n/catalog-files.js';
import { TurnMetrics } from './metrics/turn-metrics.js';
import { OperatorAuth } from './operators/operator-auth.js';
import { TurnTracing } from './telemetry/turn-tracing.js';
import { CustomerTurnRunner } from './turns/customer-turns.js';
import { TurnRunner } from './turns/turn-runner.js';
import { TurnTracker } from './turns/turn-tracker.js';

/** What the route handlers share: built once by `createApp`. */
export interface Services extends RouteAreaContext {
  agent: TreeAgent;
  debug: boolean;
  /** The deployment's language (option `locale`), or `undefined`: each request's `Accept-Language` decides. */
  locale: string | undefined;
  /** Whether the server requires API keys (`apiKeys` given). */
  apiKeysConfigured: boolean;
  tokens: SessionTokens;
  runner: TurnRunner;
  /** Customers' messages as turns, with the message limits (the message route and channels). */
  turns: CustomerTurnRunner;
  tracker: TurnTracker;
  metrics: TurnMetrics;
  limits: ResolvedLimits;
  expiry: ResolvedExpiry;
  /** New sessions per client address (`null`: unlimited). */
  sessionCreation: FixedWindows | null;
  /** The open event streams, under their caps (`streams`). */
  streams: EventStreams;
  /** User messages per session and per client address (`messageLimit`). */
  messageLimits: MessageLimits;
  logger: ServerLogger;
  /** Operator login, roles and the audit log (`operatorAuth.require('admin')` guards an admin route). */
  operatorAuth: OperatorAuth;
  /** Human handoff: the queue, the bus between processes, the webhook, the metrics. */
  handoffs: HandoffService;
  /** Where turn facts and satisfaction ratings are kept (option `analytics.store`), if anywhere. */
  analyticsStore: AnalyticsStore | undefined;
  /** Messaging channels (option `channels`), or `null`. */
  channels: ChannelService | null;
  readyTimeoutMs: number;
  /** When the app was created (the `created` of `/v1/models`). */
  startedAt: Date;
}

/** The services of `createApp(options)`. */
export function createServices(options: CreateAppOptions): Services {
  const debug = options.debug ?? false;
  // Nothing personal in logs or traces: the agent's redaction applies to them too (docs/privacy.md).
  const redactor = options.agent.redactor;
  const logger = redactor
    ? redactingLogger(options.logger ?? console, redactor)
    : (options.logger ?? console);
  const tracker = new TurnTracker();
  const metrics = new TurnMetrics(() => tracker.inFlight);
  const streams = new EventStreams(options.streams);
  const operatorAuth = new OperatorAuth(options.operators, logger, undefined, streams);
  const handoffs = new HandoffService({
    agent: options.agent,
    options: options.handoff,
    registry: metrics.registry,
    auth: operatorAuth,
    logger,
  });
  const runner = new TurnRunner({
    agent: options.agent,
    tracker,
    metrics,
    tracing: new TurnTracing(options.tracer, redactor ? (text) => redactor.redactText(text) : undefined),
    logger,
    debug,
    observers: (sessionId) => [handoffs.observeTurn(sessionId)],
  });
  const limits = resolveLimits(options.limits);
  const messageLimits = new MessageLimits(options.messageLimit);
  const tokens = options.sessionTokens ?? new InMemorySessionTokens();
  return {
    agent: options.agent,
    debug,
    locale: options.locale === undefined ? undefined : checkLocale(options.locale, 'The option "locale"'),
    apiKeysConfigured: (options.apiKeys?.length ?? 0) > 0,
    tokens,
    tracker,
    metrics,
    runner,
    turns: new CustomerTurnRunner({
      runner,
      messageLimits,
      limits,
      fileStore: options.agent.fileStore,
      // An experiment splits by the session's user when it has one (docs/versions.md).
      userOf: async (sessionId) => (await tokens.info?.(sessionId))?.userId ?? null,
    }),
    limits,
    expiry: resolveExpiry(options.sessions),
    sessionCreation:
      options.sessions?.createLimit === false
        ? null
        : new FixedWindows(options.sessions?.createLimit ?? DEFAULT_SESSION_CREATE_LIMIT),
    messageLimits,
    streams,
    logger,
    operatorAuth,
    handoffs,
    analyticsStore: options.analytics?.store,
    channels: null,
    readyTimeoutMs: options.readyTimeoutMs ?? 2000,
    startedAt: new Date(),
  };
}
