import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { streamSession } from '../handoff/session-stream.js';
import { clientAddress } from '../http/client-address.js';
import { FixedWindows, rateLimited } from '../http/fixed-windows.js';
import { readJson, validate } from '../http/read-json.js';
import type { Services } from '../services.js';

const Cursor = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const EventsQuery = z.strictObject({ after: Cursor.optional() });
const TypingBody = z.strictObject({ typing: z.boolean() });

/** At most this many typing signals per session per minute (a page sends one every few seconds while the user types). */
export const USER_TYPING_PER_MINUTE = 40;

/**
 * `GET /sessions/:id/events` (the session's token): the session's news as server-sent events, while
 * the page is open — operators' messages and typing, and the handoff's state — without the user
 * sending anything. Resumable: `Last-Event-ID` (or `?after=`) is the last history position the
 * client has; rows after it are sent first. Without either, the stream starts after the current history.
 * Capped per session, per address and per process, and ended when idle (`streams`) or when the
 * session is deleted or expires (`: closed: session deleted`).
 */
export function sessionEventRoutes(services: Services): Hono {
  const routes = new Hono();
  const typingWindows = new FixedWindows({ windowMs: 60_000, max: USER_TYPING_PER_MINUTE });
  routes.get('/:id/events', (c) => {
    const sessionId = c.req.param('id');
    const query = validate(EventsQuery, c.req.query(), 'query');
    const header = c.req.header('last-event-id');
    const after =
      header !== undefined && header !== ''
        ? validate(Cursor, header, 'Last-Event-ID')
        : (query.after ?? null);
    // A session deleted here ends its streams at once (`endSession`); one deleted or expired on
    // another process sharing the token store, at the next check.
    const open = services.streams.open(
      { address: clientAddress(c), sessionId },
      async () => (await services.tokens.find(sessionId)) !== null,
      'session deleted',
    );
    c.header('Cache-Control', 'no-store');
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      try {
        await streamSession(stream, {
          agent: services.agent,
          bus: services.handoffs.bus,
          sessionId,
          after,
          pollMs: services.handoffs.streamPollMs,
          open,
        });
      } finally {
        open.release();
      }
    });
  });
  /**
   * `POST /sessions/:id/typing` `{ typing }` (the session's token, so a token signals only its own
   * session): the user is typing, for the operator who has the session (docs/handoff.md). Not
   * stored; ignored while the agent has the session; rate-limited per session (429 `RATE_LIMITED`).
   */
  routes.post('/:id/typing', async (c) => {
    const sessionId = c.req.param('id');
    const body = await readJson(c, TypingBody);
    const retryAfter = typingWindows.add(sessionId);
    if (retryAfter !== null) {
      throw rateLimited(
        `Too many typing signals for this session: at most ${USER_TYPING_PER_MINUTE} a minute (send one every few seconds while the user types).`,
        retryAfter,
      );
    }
    const delivered = await services.handoffs.userTyping(sessionId, body.typing);
    return c.json({ delivered }, 202);
  });
  return routes;
}
