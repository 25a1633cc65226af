import { scheduleRefreshes } from '@treeagent/sources';
import { Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { type CreateAppOptions, DEFAULT_AUTH_FAILURE_LIMIT } from './app-options.js';
import { coreAreas } from './areas/core-areas.js';
import { mountArea } from './areas/mount-area.js';
import { requireApiKey } from './auth/api-keys.js';
import { startSessionSweeper } from './auth/session-sweeper.js';
import { mountChannelList } from './channels/channel-routes.js';
import { mountChannels } from './channels/mount-channels.js';
import { serverChannels } from './channels/server-channels.js';
import { widgetAccess, widgetSkipsApiKey } from './embed/widget-access.js';
import { WIDGET_PATHS, widgetScript } from './embed/widget-script.js';
import { notFound } from './errors/api-error.js';
import { errorResponse } from './errors/error-response.js';
import { allowHosts } from './http/allowed-hosts.js';
import { bodyLimits } from './http/body-limits.js';
import { trustClientAddress } from './http/client-address.js';
import { closeAfterEarlyAnswers } from './http/early-answers.js';
import { limitAuthFailures, rateLimit } from './http/rate-limit.js';
import { createServices } from './services.js';
import { sourcesContext } from './sources/sources-routes.js';
import type { CustomerTurns } from './turns/customer-turns.js';
import type { DrainResult } from './turns/turn-tracker.js';
import { webPage } from './web-app/web-routes.js';

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
  /**
   * Runs customers' messages as turns of their sessions, exactly as `POST /api/v1/sessions/:id/messages`
   * does (limits, queue, redaction, persistence): what a channel outside the routes (a long poller) calls.
   */
  readonly turns: CustomerTurns;
};

/** Where the web chat's routes are (the widget's CORS and access rules apply there). */
const WEB_CHAT_PREFIX = '/api/v1/sessions';
const UPLOAD_PATH = /^\/api\/v1\/(?:(?:sessions|operator\/handoffs)\/[^/]+\/files|sources\/files)\/?$/;
/** The URL spaces of the API: behind the API key (when configured) and every limit. */
const API_PATHS = ['/api', '/v1'];

/**
 * The HTTP API of a tree agent as a Hono app: the JSON API under `/api/v1`, the OpenAI-compatible
 * API under `/v1`, `/health`, `/ready`, `/metrics`, and optionally the web page under `/`.
 * Run it with `serve()`, or mount it in any Hono-compatible runtime. `channels` chooses the
 * channels (default: the web chat and the OpenAI-compatible endpoint); `routes` adds route areas of
 * your own behind the same guards.
 *
 * @example
 * const app = createApp({ agent: new TreeAgent({ tree }), apiKeys: ['sk-local'] });
 * const response = await app.request('/api/v1/sessions', { method: 'POST', headers: { Authorization: 'Bearer sk-local' } });
 * const { sessionId, token } = await response.json();
 */
export function createApp(options: CreateAppOptions): TreeAgentApp {
  const services = createServices(options);
  const channels = serverChannels(options.channels);
  const { debug, logger, locale } = services;
  const app = new Hono();
  app.onError((error, c) => errorResponse(c, error, { debug, logger, locale }));
  app.notFound((c) =>
    errorResponse(c, notFound(`There is no ${c.req.method} ${c.req.path}.`), { debug, logger, locale }),
  );

  // Guards of every request.
  app.use('*', closeAfterEarlyAnswers());
  if (options.trustProxy) {
    const trust = options.trustProxy;
    app.use('*', trustClientAddress('addresses' in trust ? trust : { addresses: trust }));
  }
  if (options.allowedHosts) app.use('*', allowHosts(options.allowedHosts));
  if (options.widget) {
    if (!channels.routes.some((channel) => channel.areas.some((area) => area.prefix === WEB_CHAT_PREFIX)))
      throw new TypeError(
        'The widget (option "widget") talks to the web chat, which option "channels" leaves out: add webChat() to channels, or drop the widget option.',
      );
    const access = widgetAccess(options.widget, (options.apiKeys?.length ?? 0) > 0);
    app.use('/api/v1/sessions', access);
    app.use('/api/v1/sessions/*', access);
    const script = widgetScript(undefined, options.widget.locale);
    for (const path of WIDGET_PATHS) app.get(path, script);
  }
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
  if (options.editor && !services.operatorAuth.configured && !debug)
    throw new TypeError(
      'The tree editor (option "editor") needs admin logins ("operators") or debug mode: without either, anyone who reaches the server could rewrite the tree.',
    );
  // Guards of the API, one instance of each shared by every area (one rate-limit window per client,
  // not per area); areas of a program's own outside the API get them all but the API key.
  const authFailures = options.authFailureLimit ?? DEFAULT_AUTH_FAILURE_LIMIT;
  const failures = authFailures ? [limitAuthFailures(authFailures)] : [];
  const perClient = options.rateLimit ? [rateLimit(options.rateLimit)] : [];
  const body = bodyLimits({
    jsonBytes: services.limits.maxBodyBytes,
    uploadBytes: services.limits.maxUploadBytes,
    isUpload: (path, method) => method === 'POST' && UPLOAD_PATH.test(path),
  });
  const apiKey = options.apiKeys?.length
    ? [requireApiKey(options.apiKeys, widgetSkipsApiKey(options.widget))]
    : [];
  const apiGuards: MiddlewareHandler[] = [...failures, ...apiKey, ...perClient, body];
  for (const prefix of API_PATHS) app.use(`${prefix}/*`, ...apiGuards);

  // The route areas: the route channels' (web chat, OpenAI-compatible), the server's own, the program's.
  const ownGuards = (prefix: string) => (isUnder(prefix, API_PATHS) ? [] : [...failures, ...perClient, body]);
  for (const channel of channels.routes)
    for (const area of channel.areas) mountArea(app, area, services, ownGuards(area.prefix));
  for (const area of coreAreas(options, services)) mountArea(app, area, services);
  for (const area of options.routes ?? []) mountArea(app, area, services, ownGuards(area.prefix));
  // Messaging channels: webhooks under /channels, admin routes under /api/v1/channels (docs/channels.md).
  if (channels.messaging) services.channels = mountChannels(app, services, channels.messaging);
  mountChannelList(app, channels.routes, services.channels ?? null, services.operatorAuth.require('admin'));
  if (options.web)
    app.use(
      '*',
      webPage({ view: debug ? 'developer' : 'customer', ...(locale ? { locale } : {}), ...options.web }),
    );

  const sweeper = startSessionSweeper(services, options.analytics?.store);
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
        sweeper.stop();
        void sourceSchedule?.stop();
        services.handoffs.webhook?.stop();
        void services.handoffs.escalation?.stop();
        services.channels?.stop();
        services.streams.endAll('shutting down');
        const drained = services.tracker.drain({
          timeoutMs: shutdown.timeoutMs ?? 10_000,
          abortGraceMs: shutdown.abortGraceMs ?? 2000,
        });
        // Channel sends and webhook deliveries in progress finish (or fail) and are recorded here,
        // before the caller closes the stores, so nothing stays leased by this process.
        return drained.then(async (result) => {
          await services.channels?.settle();
          await services.handoffs.webhook?.settle();
          return result;
        });
      },
    },
    sweepExpiredSessions: { value: sweeper.sweep },
    turnsInFlight: { get: () => services.tracker.inFlight },
    turns: { value: services.turns },
  });
}

/** Whether `path` is one of `prefixes` or below one. */
function isUnder(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
