import { joinRoutes } from '../areas/join-routes.js';
import { routeArea } from '../areas/route-area.js';
import { servicesOf } from '../areas/services-of.js';
import { type RouteChannel, routeChannel } from '../channels/route-channel.js';
import { fileRoutes } from '../files/file-routes.js';
import { sessionCallbackRoutes } from '../handoff/callbacks/callback-routes.js';
import { satisfactionRoutes } from '../handoff/satisfaction/satisfaction-routes.js';
import { messageRoutes } from './message-routes.js';
import { sessionEventRoutes } from './session-event-routes.js';
import { sessionRoutes } from './session-routes.js';

/** Options of the web chat channel. */
export interface WebChatOptions {
  /** Name among the server's channels. Default `web-chat`. */
  name?: string;
}

const SESSIONS = '/api/v1/sessions';

/**
 * The web chat as a channel: the sessions JSON API and its event stream under `/api/v1/sessions`
 * (create, messages, files, history, typing, satisfaction, a callback request out of hours), what the chat page and the widget call.
 * A session's routes need its token; creating one does not. On by default; leave it out of
 * `createApp({ channels })` for a server without it (its routes answer 404).
 *
 * @example
 * const app = createApp({ agent, channels: [webChat(), openAiCompatible()] });
 */
export function webChat(options: WebChatOptions = {}): RouteChannel {
  const name = options.name ?? 'web-chat';
  return routeChannel({
    name,
    capabilities: {
      streaming: true,
      options: true,
      files: { receive: true, send: true },
      typing: true,
      handoff: true,
    },
    areas: [
      routeArea({
        prefix: SESSIONS,
        access: 'session',
        routes: (context) => {
          const services = servicesOf(context, name);
          // The satisfaction rating is stored with the analytics (option analytics.store), if any.
          return joinRoutes(
            sessionRoutes(services),
            messageRoutes(services),
            fileRoutes(services),
            sessionEventRoutes(services),
            satisfactionRoutes(services, services.analyticsStore),
            sessionCallbackRoutes(services),
          );
        },
      }),
    ],
    routes: [
      { method: 'POST', path: SESSIONS, access: 'public' },
      { method: 'DELETE', path: `${SESSIONS}/:id`, access: 'session' },
      { method: 'POST', path: `${SESSIONS}/:id/reset`, access: 'session' },
      { method: 'GET', path: `${SESSIONS}/:id/history`, access: 'session' },
      { method: 'POST', path: `${SESSIONS}/:id/messages`, access: 'session' },
      { method: 'POST', path: `${SESSIONS}/:id/files`, access: 'session' },
      { method: 'GET', path: `${SESSIONS}/:id/files/:fileId`, access: 'session' },
      { method: 'GET', path: `${SESSIONS}/:id/events`, access: 'session' },
      { method: 'POST', path: `${SESSIONS}/:id/typing`, access: 'session' },
      { method: 'POST', path: `${SESSIONS}/:id/satisfaction`, access: 'session' },
      { method: 'GET', path: `${SESSIONS}/:id/callback`, access: 'session' },
      { method: 'POST', path: `${SESSIONS}/:id/callback`, access: 'session' },
    ],
  });
}
