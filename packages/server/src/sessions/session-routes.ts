import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import { USER_ID_PATTERN } from '../analytics/personal-data.js';
import type { CreatedSession, HistoryResponse } from '../api-types.js';
import { createSecret, hashSecret } from '../auth/secrets.js';
import { ApiError } from '../errors/api-error.js';
import { publicEntry } from '../handoff/user-view.js';
import { clientAddress } from '../http/client-address.js';
import { rateLimited } from '../http/fixed-windows.js';
import { readJson, validate } from '../http/read-json.js';
import type { Services } from '../services.js';

/** `POST /sessions` body: optionally the user the integrating application creates the session for. */
const CreateSession = z.strictObject({
  userId: z
    .string()
    .regex(
      USER_ID_PATTERN,
      "an opaque user reference: 1–128 letters, digits and . _ : @ + - (your application's user id)",
    )
    .optional(),
  locale: z
    .string()
    .regex(
      /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/,
      'a language code such as "it", "en" or "it-IT" (the page\'s locale)',
    )
    .optional(),
});

/** The body of a request that takes none: left out, or `{}`. */
const EmptyBody = z.strictObject({});

const HistoryQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(10_000).optional(),
});

/** Runs a store operation; a failure is logged and answered 503 `SESSION_STORE`. */
async function storeCall(services: Services, what: string, call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (error) {
    services.logger.error(`${what} failed`, error);
    throw new ApiError(503, 'SESSION_STORE', 'The session store is not reachable; retry later.', {
      cause: error,
    });
  }
}

/**
 * `POST /sessions` (body optional: `{ userId }`, the user it is for, kept for personal data requests;
 * `{ locale }`, the page's locale, which fixes the session's language) → 201 `{ sessionId, token }`
 * (and `language`, the tree's language the locale chose or `null`, when a locale was given); `GET /sessions/:id/history?limit=` →
 * `{ sessionId, history }`; `DELETE /sessions/:id` → 204, the session gone (history, state, files, handoff queue entry,
 * token: its token no longer opens anything, its open event streams end); `POST /sessions/:id/reset` → 204, the conversation
 * started over (history, state and position deleted; token and files kept). The token is shown
 * once; the server keeps only its hash. Each needs the session's token.
 */
export function sessionRoutes(services: Services): Hono {
  const routes = new Hono();

  routes.post('/', async (c) => {
    const retryAfter = services.sessionCreation?.add(clientAddress(c)) ?? null;
    if (retryAfter !== null) throw rateLimited('Too many new sessions from this client.', retryAfter);
    const { userId, locale } = await readJson(c, CreateSession);
    const sessionId = randomUUID();
    const token = createSecret();
    await services.tokens.save(sessionId, hashSecret(token), userId ?? null);
    // The page's locale fixes the session's language when the tree speaks it (docs/multilingual-trees.md).
    let language: string | null = null;
    if (locale !== undefined)
      await storeCall(services, `Setting the language of session ${sessionId}`, async () => {
        language = await services.agent.setSessionLanguage(sessionId, locale);
      });
    c.header('Cache-Control', 'no-store');
    const created: CreatedSession = { sessionId, token, ...(locale !== undefined ? { language } : {}) };
    return c.json(created, 201);
  });

  routes.delete('/:id', async (c) => {
    const sessionId = c.req.param('id');
    await storeCall(services, `Deleting session ${sessionId}`, async () => {
      await services.agent.deleteSession(sessionId);
      await services.handoffs.forget(sessionId);
    });
    await services.tokens.delete(sessionId);
    services.streams.endSession(sessionId);
    return c.body(null, 204);
  });

  routes.post('/:id/reset', async (c) => {
    const sessionId = c.req.param('id');
    // No body, or an empty JSON object: anything else is a client's mistake, said as for every route.
    await readJson(c, EmptyBody);
    await storeCall(services, `Resetting session ${sessionId}`, () => services.agent.resetSession(sessionId));
    return c.body(null, 204);
  });

  routes.get('/:id/history', async (c) => {
    const sessionId = c.req.param('id');
    const query = validate(HistoryQuery, c.req.query(), 'query');
    try {
      const history = await services.agent.history(
        sessionId,
        query.limit === undefined ? {} : { limit: query.limit },
      );
      // Operators by display name only, as the event stream shows them.
      const body: HistoryResponse = { sessionId, history: history.map(publicEntry) };
      return c.json(body);
    } catch (error) {
      services.logger.error(`Reading the history of session ${sessionId} failed`, error);
      throw new ApiError(503, 'SESSION_STORE', 'The session store is not reachable; retry later.', {
        cause: error,
      });
    }
  });

  return routes;
}
