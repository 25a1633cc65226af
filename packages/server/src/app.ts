import type { AnalyticsStore } from '@treeagent/core';
import { scheduleRefreshes } from '@treeagent/sources';
import { Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { analyticsRoutes } from './analytics/analytics-routes.js';
import { purgeExpiredFacts } from './analytics/fact-retention.js';
import { personalDataRoutes } from './analytics/personal-data-routes.js';
import {
  type CreateAppOptions,
  DEFAULT_AUTH_FAILURE_LIMIT,
  DEFAULT_SESSION_CREATE_LIMIT,
  resolveLimits,
} from './app-options.js';
import { requireApiKey } from './auth/api-keys.js';
import { checkSessionAccess, SESSION_TOKEN_HEADER } from './auth/session-access.js';
import { isExpired, resolveExpiry, sweepExpired } from './auth/session-expiry.js';
import { InMemorySessionTokens } from './auth/session-tokens.js';
import { mountChannels } from './channels/mount-channels.js';
import { TreeEditorService } from './editor/tree-editor-service.js';
import { ApiError, notFound } from './errors/api-error.js';
import { errorResponse } from './errors/error-response.js';
import { redactingLogger } from './errors/redacting-logger.js';
import { HandoffService } from './handoff/handoff-service.js';
import { allowHosts } from './http/allowed-hosts.js';
import { bodyLimits } from './http/body-limits.js';
import { trustClientAddress } from './http/client-address.js';
import { closeAfterEarlyAnswers } from './http/early-answers.js';
import { EventStreams } from './http/event-streams.js';
import { FixedWindows } from './http/fixed-windows.js';
import { MessageLimits } from './http/message-limits.js';
import { limitAuthFailures, rateLimit } from './http/rate-limit.js';
import { TurnMetrics } from './metrics/turn-metrics.js';
import { openAiRoutes } from './openai/openai-routes.js';
import { OperatorAuth } from './operators/operator-auth.js';
import { editorRoutes } from './routes/editor-routes.js';
import { fileRoutes } from './routes/file-routes.js';
import { handoffRoutes } from './routes/handoff-routes.js';
import { healthRoutes } from './routes/health-routes.js';
import { messageRoutes } from './routes/message-routes.js';
import { metricsRoutes } from './routes/metrics-routes.js';
import { operatorRoutes } from './routes/operator-routes.js';
import { sessionEventRoutes } from './routes/session-event-routes.js';
import { sessionRoutes } from './routes/session-routes.js';
import { treeRoutes } from './routes/tree-routes.js';
import { webPage } from './routes/web-routes.js';
import { webhookRoutes } from './routes/webhook-routes.js';
import type { Services } from './services.js';
import { sourcesContext, sourcesRoutes } from './sources/sources-routes.js';
import { TurnTracing } from './telemetry/turn-tracing.js';
import { TurnRunner } from './turns/turn-runner.js';
import { type DrainResult, TurnTracker } from './turns/turn-tracker.js';

/** Options of a graceful shutdown. */
export interface ShutdownOptions {
  /** How long to wait for turns in flight before aborting them. Default 10 000 ms. */
  timeoutMs?: number;
  /** How long to wait for aborted turns to notice. Default 2000 ms. */
  abortGraceMs?: number;
}

/** The server's Hono app, plus graceful shutdown of its turns. */
export type TreeAgentApp = Hono & {
  /**
   * Stops accepting turns (503 `SHUTTING_DOWN`), waits for those in flight up to `timeoutMs`, then
   * aborts the rest (an aborted turn saves nothing). `serve().close()` calls it.
   */
  shutdown(options?: ShutdownOptions): Promise<DrainResult>;
  /** Turns running now. */
  readonly turnsInFlight: number;
  /**
   * Deletes the expired sessions now (what the background sweep does every `sweepIntervalMs`), and
   * the turn facts older than `sessions.absoluteTimeoutMs` (the retention of conversation data);
   * resolves to how many sessions were deleted. `now` defaults to the clock.
   */
  sweepExpiredSessions(now?: Date): Promise<number>;
};

const UPLOAD_PATH = /^\/api\/v1\/(?:(?:sessions|operator\/handoffs)\/[^/]+\/files|sources\/files)\/?$/;

/**
 * The HTTP API of a tree agent as a Hono app: the JSON API under `/api/v1`, the OpenAI-compatible
 * API under `/v1`, `/health`, `/ready`, `/metrics`, and optionally the web page under `/`.
 * Run it with `serve()`, or mount it in any Hono-compatible runtime.
 *
 * @example
 * const app = createApp({ agent: new TreeAgent({ tree }), apiKeys: ['sk-local'] });
 * const response = await app.request('/api/v1/sessions', { method: 'POST', headers: { Authorization: 'Bearer sk-local' } });
 * const { sessionId, token } = await response.json();
 */
export function createApp(options: CreateAppOptions): TreeAgentApp {
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
  const services: Services = {
    agent: options.agent,
    debug,
    apiKeysConfigured: (options.apiKeys?.length ?? 0) > 0,
    tokens: options.sessionTokens ?? new InMemorySessionTokens(),
    tracker,
    metrics,
    runner: new TurnRunner({
      agent: options.agent,
      tracker,
      metrics,
      tracing: new TurnTracing(options.tracer, redactor ? (text) => redactor.redactText(text) : undefined),
      logger,
      debug,
      observers: (sessionId) => [handoffs.observeTurn(sessionId)],
    }),
    limits: resolveLimits(options.limits),
    expiry: resolveExpiry(options.sessions),
    sessionCreation:
      options.sessions?.createLimit === false
        ? null
        : new FixedWindows(options.sessions?.createLimit ?? DEFAULT_SESSION_CREATE_LIMIT),
    messageLimits: new MessageLimits(options.messageLimit),
    streams,
    logger,
    operatorAuth,
    handoffs,
    channels: null,
    readyTimeoutMs: options.readyTimeoutMs ?? 2000,
    startedAt: new Date(),
  };

  const app = new Hono();
  app.onError((error, c) => errorResponse(c, error, { debug, logger }));
  app.notFound((c) =>
    errorResponse(c, notFound(`There is no ${c.req.method} ${c.req.path}.`), { debug, logger }),
  );

  app.use('*', closeAfterEarlyAnswers());
  if (options.trustProxy) {
    const trust = options.trustProxy;
    app.use('*', trustClientAddress('addresses' in trust ? trust : { addresses: trust }));
  }
  if (options.allowedHosts) app.use('*', allowHosts(options.allowedHosts));
  if (options.cors) {
    app.use(
      '*',
      cors({
        allowHeaders: [
          'Authorization',
          'Content-Type',
          'X-Session-Token',
          'X-Session-Id',
          'X-Operator-Token',
        ],
        exposeHeaders: ['X-Session-Id', 'Retry-After'],
        ...options.cors,
      }),
    );
  }
  // One instance of each, shared by both APIs (one rate-limit window per client, not per API).
  const authFailures = options.authFailureLimit ?? DEFAULT_AUTH_FAILURE_LIMIT;
  const guards = [
    ...(authFailures ? [limitAuthFailures(authFailures)] : []),
    ...(options.apiKeys?.length ? [requireApiKey(options.apiKeys)] : []),
    ...(options.rateLimit ? [rateLimit(options.rateLimit)] : []),
    bodyLimits({
      jsonBytes: services.limits.maxBodyBytes,
      uploadBytes: services.limits.maxUploadBytes,
      isUpload: (path, method) => method === 'POST' && UPLOAD_PATH.test(path),
    }),
  ];
  for (const prefix of ['/api/*', '/v1/*']) app.use(prefix, ...guards);

  const api = new Hono();
  const sessionAccess: MiddlewareHandler = async (c, next) => {
    const sessionId = c.req.param('id')!;
    await checkSessionAccess(services.tokens, sessionId, c.req.header(SESSION_TOKEN_HEADER), () =>
      isExpired(services.tokens, sessionId, services.expiry, new Date()),
    );
    await next();
  };
  api.use('/sessions/:id', sessionAccess);
  api.use('/sessions/:id/*', sessionAccess);
  api.route('/sessions', sessionRoutes(services));
  api.route('/sessions', messageRoutes(services));
  api.route('/sessions', fileRoutes(services));
  api.route('/sessions', sessionEventRoutes(services));
  api.route('/', treeRoutes(services));
  if (options.editor) {
    // Editing the tree is an admin's, or the developer's on their own machine (dev's debug mode).
    if (!services.operatorAuth.configured && !debug)
      throw new TypeError(
        'The tree editor (option "editor") needs admin logins ("operators") or debug mode: without either, anyone who reaches the server could rewrite the tree.',
      );
    const guard: MiddlewareHandler[] = services.operatorAuth.configured
      ? [services.operatorAuth.require('admin')]
      : [];
    api.use('/editor', ...guard);
    api.use('/editor/*', ...guard);
    api.route('/editor', editorRoutes(services, new TreeEditorService(options.editor)));
  }
  // Operator functions behind the operator login (an admin may too), personal data behind the admin
  // role; never a session token or an API key (docs/analytics.md, docs/security.md).
  api.use('/analytics/*', services.operatorAuth.require('operator'));
  api.use('/personal-data/*', services.operatorAuth.require('admin'));
  api.route('/analytics', analyticsRoutes(services, options.analytics ?? {}));
  api.route('/personal-data', personalDataRoutes(services, options.analytics ?? {}));
  // Knowledge sources: operators read, admins change (docs/knowledge.md, docs/security.md).
  api.use('/sources', services.operatorAuth.require('operator'));
  api.use('/sources/*', services.operatorAuth.require('operator'));
  if (options.sources) api.route('/sources', sourcesRoutes(services, options.sources));
  else
    api.all('/sources/*', () => {
      throw new ApiError(
        501,
        'NOT_CONFIGURED',
        'Knowledge sources need the server option sources.store (treeagent dev and serve set it).',
      );
    });
  api.route('/operator', operatorRoutes(services));
  api.route('/operator', handoffRoutes(services, options.analytics?.store));
  api.route('/operator', webhookRoutes(services));
  app.route('/api/v1', api);
  app.route('/v1', openAiRoutes(services));
  app.route('/', healthRoutes(services));
  // Messaging channels: webhooks under /channels, admin routes under /api/v1/channels (docs/channels.md).
  if (options.channels) services.channels = mountChannels(app, services, options.channels);
  if (options.metrics ?? true) app.route('/', metricsRoutes(services));
  if (options.web) app.use('*', webPage(options.web));

  // One sweep, one retention (sessions.absoluteTimeoutMs): expired sessions with their history, files,
  // turn facts and handoff queue entry, then the turn facts older than the retention that no session holds (docs/privacy.md).
  const facts =
    options.analytics?.store ??
    (services.agent.sessionStore as { analytics?: () => AnalyticsStore }).analytics?.() ??
    null;
  const sweep = async (now: Date = new Date()) => {
    const deleted = await sweepExpired(
      services.tokens,
      async (id) => {
        await services.agent.deleteSession(id);
        await services.handoffs.forget(id);
        await services.channels?.forget([id]);
        streams.endSession(id, 'session expired');
      },
      services.expiry,
      now,
    );
    await purgeExpiredFacts(facts, services.expiry, now);
    return deleted;
  };
  let sweeping: Promise<unknown> | null = null;
  const sweeper =
    services.expiry.sweepIntervalMs > 0 && (services.tokens.claimExpired || facts)
      ? setInterval(() => {
          sweeping ??= sweep()
            .catch((error) => logger.error('Deleting expired sessions failed; the next sweep retries', error))
            .finally(() => {
              sweeping = null;
            });
        }, services.expiry.sweepIntervalMs)
      : null;
  sweeper?.unref?.();
  const sourceSchedule =
    options.sources && (options.sources.scheduleIntervalMs ?? 60_000) > 0
      ? scheduleRefreshes(sourcesContext(services, options.sources), {
          intervalMs: options.sources.scheduleIntervalMs ?? 60_000,
          onError: (error) =>
            logger.error('Refreshing the scheduled knowledge sources failed; the next check retries', error),
        })
      : null;

  return Object.defineProperties(app as TreeAgentApp, {
    shutdown: {
      value: (shutdown: ShutdownOptions = {}) => {
        if (sweeper) clearInterval(sweeper);
        void sourceSchedule?.stop();
        handoffs.webhook?.stop();
        services.channels?.stop();
        streams.endAll('shutting down');
        const drained = tracker.drain({
          timeoutMs: shutdown.timeoutMs ?? 10_000,
          abortGraceMs: shutdown.abortGraceMs ?? 2000,
        });
        // Channel sends in progress finish (or fail) here, so no message stays leased by this process.
        return services.channels
          ? drained.then(async (result) => {
              await services.channels?.settle();
              return result;
            })
          : drained;
      },
    },
    sweepExpiredSessions: { value: sweep },
    turnsInFlight: { get: () => tracker.inFlight },
  });
}
