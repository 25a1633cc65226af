import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { streamSession } from '../handoff/session-stream.js';
import { validate } from '../http/read-json.js';
import type { Services } from '../services.js';

const Cursor = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const EventsQuery = z.strictObject({ after: Cursor.optional() });

/**
 * `GET /sessions/:id/events` (the session's token): the session's news as server-sent events, while
 * the page is open — operators' messages and typing, and the handoff's state — without the user
 * sending anything. Resumable: `Last-Event-ID` (or `?after=`) is the last history position the
 * client has; rows after it are sent first. Without either, the stream starts after the current history.
 */
export function sessionEventRoutes(services: Services): Hono {
  const routes = new Hono();
  routes.get('/:id/events', (c) => {
    const sessionId = c.req.param('id');
    const query = validate(EventsQuery, c.req.query(), 'query');
    const header = c.req.header('last-event-id');
    const after =
      header !== undefined && header !== ''
        ? validate(Cursor, header, 'Last-Event-ID')
        : (query.after ?? null);
    c.header('Cache-Control', 'no-store');
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, (stream) =>
      streamSession(stream, {
        agent: services.agent,
        bus: services.handoffs.bus,
        sessionId,
        after,
        pollMs: services.handoffs.streamPollMs,
      }),
    );
  });
  return routes;
}
