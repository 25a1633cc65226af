import { Hono } from 'hono';
import { z } from 'zod';
import type { HandoffListResponse } from '../api-types.js';
import { channelOfSession } from '../channels/channel-of-session.js';
import { validate } from '../http/read-json.js';
import type { Services } from '../services.js';
import { summaryOf } from './handoff-summary.js';

const ListQuery = z.strictObject({
  status: z.enum(['open', 'closed']).optional(),
  queue: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

/**
 * The queue of the operator console, `GET /api/v1/operator/handoffs?status=&queue=&limit=` (operators):
 * the handed-off sessions, open ones by default, with the names of the open queues.
 */
export function handoffQueueRoutes(services: Services): Hono {
  const routes = new Hono();
  const { handoffs, agent } = services;

  routes.get('/', async (c) => {
    const query = validate(ListQuery, c.req.query(), 'query');
    const entries = await handoffs.queue.list({ status: query.status ?? 'open', ...query });
    const now = Date.now();
    const list = await Promise.all(
      entries.map(async (entry) =>
        summaryOf(
          entry,
          await agent.history(entry.sessionId, { limit: 20 }),
          now,
          await channelOfSession(agent, entry.sessionId),
        ),
      ),
    );
    const open = query.status === 'closed' ? await handoffs.queue.list({ status: 'open' }) : entries;
    const response: HandoffListResponse = {
      handoffs: list,
      queues: [...new Set(open.map((entry) => entry.queue))].sort(),
    };
    c.header('Cache-Control', 'no-store');
    return c.json(response);
  });

  return routes;
}
