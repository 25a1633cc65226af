import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import type { CreatedSession, HistoryResponse } from '../api-types.js';
import { createSecret, hashSecret } from '../auth/secrets.js';
import { ApiError } from '../errors/api-error.js';
import { validate } from '../http/read-json.js';
import type { Services } from '../services.js';

const HistoryQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(10_000).optional(),
});

/**
 * `POST /sessions` → 201 `{ sessionId, token }` and `GET /sessions/:id/history?limit=` →
 * `{ sessionId, history }`. The token is shown once; the server keeps only its hash.
 */
export function sessionRoutes(services: Services): Hono {
  const routes = new Hono();

  routes.post('/', async (c) => {
    const sessionId = randomUUID();
    const token = createSecret();
    await services.tokens.save(sessionId, hashSecret(token));
    c.header('Cache-Control', 'no-store');
    const created: CreatedSession = { sessionId, token };
    return c.json(created, 201);
  });

  routes.get('/:id/history', async (c) => {
    const sessionId = c.req.param('id');
    const query = validate(HistoryQuery, c.req.query(), 'query');
    try {
      const history = await services.agent.history(
        sessionId,
        query.limit === undefined ? {} : { limit: query.limit },
      );
      const body: HistoryResponse = { sessionId, history };
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
