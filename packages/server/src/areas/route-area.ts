import type { TreeAgent } from '@treeagent/core';
import type { Hono } from 'hono';
import type { ServerLogger } from '../errors/error-response.js';
import type { CustomerTurns } from '../turns/customer-turns.js';

/**
 * Who may call a route area; the server puts the guard in front of it.
 *
 * - `public`: anyone who passes the server's guards of the path (under `/api` and `/v1` the API
 *   key when `apiKeys` are set; everywhere the body limits, `rateLimit` and the limit on failed
 *   authentication). An area that verifies its callers itself (a platform's signed webhook) is public.
 * - `session`: the holder of a session's token (`X-Session-Token`) for every path
 *   `<prefix>/:id` and below; `:id` is the session. `POST <prefix>` itself stays public.
 * - `operator`: a logged-in operator or admin (`operators` of `createApp`).
 * - `admin`: a logged-in admin.
 */
export type RouteAccess = 'public' | 'session' | 'operator' | 'admin';

/** What the server gives the routes of an area (`RouteArea.routes`). */
export interface RouteAreaContext {
  /** The agent the server exposes. */
  readonly agent: TreeAgent;
  /**
   * Runs a customer's message as a turn of a session through the same limits, queue, redaction,
   * tracing and persistence as `POST /api/v1/sessions/:id/messages`: what a channel calls.
   */
  readonly turns: CustomerTurns;
  /** The server's logger (redacting when the agent redacts). */
  readonly logger: ServerLogger;
  /** Whether the server runs in debug mode. */
  readonly debug: boolean;
}

/**
 * A set of routes mounted under one path prefix with one access rule: how the server's own API is
 * assembled, and how a program adds its own routes (a messaging channel's webhook, a custom
 * endpoint) with `createApp({ routes: [routeArea(…)] })`.
 */
export interface RouteArea<Context extends RouteAreaContext = RouteAreaContext> {
  /** Where the routes are mounted, e.g. `/api/v1/sessions` or `/channels/telegram`: starts with `/`, no trailing `/`, no `:` or `*`. */
  readonly prefix: string;
  /** Who may call them; see `RouteAccess`. */
  readonly access: RouteAccess;
  /** The routes, relative to `prefix` (`routes.post('/webhook', …)` answers `POST <prefix>/webhook`). */
  routes(context: Context): Hono;
}

const PREFIX = /^(?:\/[A-Za-z0-9._~-]+)+$/;
const ACCESS: readonly RouteAccess[] = ['public', 'session', 'operator', 'admin'];

/**
 * Declares a route area for `createApp({ routes })`, checking its prefix and access rule.
 *
 * @example
 * const status = routeArea({
 *   prefix: '/api/v1/status',
 *   access: 'operator',
 *   routes: ({ agent }) => new Hono().get('/', (c) => c.json({ tree: agent.tree.name })),
 * });
 * const app = createApp({ agent, operators, routes: [status] });
 */
export function routeArea<Context extends RouteAreaContext = RouteAreaContext>(
  area: RouteArea<Context>,
): RouteArea<Context> {
  if (typeof area.prefix !== 'string' || !PREFIX.test(area.prefix)) {
    throw new TypeError(
      `The route area prefix ${JSON.stringify(area.prefix)} is not a plain path: write it like "/api/v1/things" or "/channels/telegram" (starting with "/", no trailing "/", no ":" or "*"; parameters belong in the routes).`,
    );
  }
  if (!ACCESS.includes(area.access)) {
    throw new TypeError(
      `The route area "${area.prefix}" has access ${JSON.stringify(area.access)}: use one of ${ACCESS.map((access) => `"${access}"`).join(', ')}.`,
    );
  }
  if (typeof area.routes !== 'function') {
    throw new TypeError(
      `The route area "${area.prefix}" has no routes function: give routes: (context) => new Hono()…`,
    );
  }
  return area;
}
