import { routeArea } from '../areas/route-area.js';
import { servicesOf } from '../areas/services-of.js';
import { type RouteChannel, routeChannel } from '../channels/route-channel.js';
import { openAiRoutes } from './openai-routes.js';

/** Options of the OpenAI-compatible channel. */
export interface OpenAiCompatibleOptions {
  /** Name among the server's channels. Default `openai`. */
  name?: string;
}

/**
 * The OpenAI-compatible endpoint as a channel: `GET /v1/models`, `GET /v1/models/:model` and
 * `POST /v1/chat/completions` (streaming too), behind the API key when `apiKeys` are set; a
 * conversation is reachable only with the credential that created it (docs/openai-compatible.md).
 * On by default; leave it out of `createApp({ channels })` for a server without `/v1` (404).
 *
 * @example
 * const app = createApp({ agent, channels: [webChat(), openAiCompatible()] });
 */
export function openAiCompatible(options: OpenAiCompatibleOptions = {}): RouteChannel {
  const name = options.name ?? 'openai';
  return routeChannel({
    name,
    capabilities: {
      streaming: true,
      options: true,
      files: { receive: true, send: false },
      typing: false,
      handoff: true,
    },
    areas: [
      routeArea({
        prefix: '/v1',
        access: 'public',
        routes: (context) => openAiRoutes(servicesOf(context, name)),
      }),
    ],
    routes: [
      { method: 'GET', path: '/v1/models', access: 'public' },
      { method: 'GET', path: '/v1/models/:model', access: 'public' },
      { method: 'POST', path: '/v1/chat/completions', access: 'public' },
    ],
  });
}
