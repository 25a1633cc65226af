import type { Channel } from '@treeagent/core/adapter';
import { type RouteAccess, type RouteArea, type RouteAreaContext, routeArea } from '../areas/route-area.js';

/** What a route channel's clients get, declared by the channel (not guessed from its routes). */
export interface RouteChannelCapabilities {
  /** Whether answers stream as they are written (server-sent events). */
  streaming: boolean;
  /** Whether the agent's options reach the client as choices it can send back. */
  options: boolean;
  /** Whether the client sends files (`receive`) and gets the agent's and operators' files (`send`). */
  files: { receive: boolean; send: boolean };
  /** Whether an operator's typing is shown. */
  typing: boolean;
  /** Whether a conversation can be handed to an operator and back on this channel. */
  handoff: boolean;
}

/** One route of a route channel and who may call it. */
export interface ChannelRoute {
  /** `GET`, `POST`, `PUT`, `PATCH` or `DELETE`. */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The full path with Hono parameters, e.g. `/api/v1/sessions/:id/messages`. */
  path: string;
  /**
   * Who may call it (`RouteAccess`): in a `session` area, `POST <prefix>` itself is `public` and
   * every path below `<prefix>/:id` is `session`.
   */
  access: RouteAccess;
}

/**
 * A channel that brings its own HTTP routes — the web chat's JSON API and streams, the
 * OpenAI-compatible endpoint — mounted on the route-area seam behind the server's guards. The other
 * kind, a messaging channel (`Channel` of `@treeagent/core/adapter`), answers a platform's webhook
 * and sends through the outbox. Declare one with `routeChannel(…)`.
 */
export interface RouteChannel<Context extends RouteAreaContext = RouteAreaContext> {
  readonly kind: 'routes';
  /** Its name among the server's channels: 1–63 lowercase letters, digits, `-` or `_`. */
  readonly name: string;
  readonly capabilities: RouteChannelCapabilities;
  /** Its route areas: each under its prefix, behind the guard of its access rule. */
  readonly areas: readonly RouteArea<Context>[];
  /** Every route its areas answer and who may call it (the conformance suite checks both). */
  readonly routes: readonly ChannelRoute[];
}

/** A channel of the server: a messaging channel (webhook in, outbox out) or a route channel. */
export type ServerChannel = Channel | RouteChannel;

const NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const METHODS: readonly ChannelRoute['method'][] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Whether `channel` is a route channel (otherwise a messaging channel). */
export function isRouteChannel(channel: ServerChannel): channel is RouteChannel {
  return (channel as Partial<RouteChannel>).kind === 'routes';
}

/**
 * Declares a route channel for `createApp({ channels })`, checking its name, areas and routes.
 *
 * @example
 * const status = routeChannel({
 *   name: 'status',
 *   capabilities: { streaming: false, options: false, files: { receive: false, send: false }, typing: false, handoff: false },
 *   areas: [routeArea({ prefix: '/api/v1/status', access: 'public', routes: ({ agent }) => new Hono().get('/', (c) => c.json({ tree: agent.tree.name })) })],
 *   routes: [{ method: 'GET', path: '/api/v1/status', access: 'public' }],
 * });
 * const app = createApp({ agent, channels: [webChat(), status] });
 */
export function routeChannel<Context extends RouteAreaContext = RouteAreaContext>(
  channel: Omit<RouteChannel<Context>, 'kind'>,
): RouteChannel<Context> {
  if (!NAME.test(channel.name))
    throw new TypeError(
      `Route channel name ${JSON.stringify(channel.name)} is not usable: use 1–63 lowercase letters, digits, "-" or "_".`,
    );
  if (channel.areas.length === 0)
    throw new TypeError(
      `The route channel "${channel.name}" has no areas: give it at least one routeArea(…).`,
    );
  for (const area of channel.areas) routeArea(area);
  for (const route of channel.routes) {
    if (!METHODS.includes(route.method))
      throw new TypeError(
        `The route channel "${channel.name}" declares ${JSON.stringify(route.method)} ${route.path}: use one of ${METHODS.join(', ')}.`,
      );
    if (!channel.areas.some((area) => isUnderPrefix(route.path, area.prefix)))
      throw new TypeError(
        `The route channel "${channel.name}" declares ${route.method} ${route.path}, which is under none of its areas (${channel.areas.map((area) => area.prefix).join(', ')}): declare the routes its areas answer.`,
      );
  }
  return { kind: 'routes', ...channel };
}

/** Whether `path` is `prefix` or below it. */
export function isUnderPrefix(path: string, prefix: string): boolean {
  return prefix === '/' || path === prefix || path.startsWith(`${prefix}/`);
}
