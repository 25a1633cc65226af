import type { Services } from '../services.js';
import type { RouteAreaContext } from './route-area.js';

/**
 * The server's services behind the context `createApp` gives a route area: what the server's own
 * route channels (web chat, OpenAI-compatible) need beyond the public `RouteAreaContext`.
 */
export function servicesOf(context: RouteAreaContext, channel: string): Services {
  const services = context as Partial<Services>;
  if (!services.runner || !services.tokens || !services.handoffs)
    throw new TypeError(
      `The channel "${channel}" is one of the server's own: give it to createApp({ channels }), which mounts it with the server's services.`,
    );
  return context as Services;
}
