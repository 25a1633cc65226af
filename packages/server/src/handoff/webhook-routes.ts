import { Hono } from 'hono';
import { z } from 'zod';
import type { WebhookDeadLettersResponse, WebhookRetryResponse } from '../api-types.js';
import { notFound } from '../errors/api-error.js';
import { validate } from '../http/read-json.js';
import { operatorOf } from '../operators/operator-auth.js';
import type { Services } from '../services.js';

const ListQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(1000).optional() });
const EVENT_ID = /^[A-Za-z0-9_:.-]{1,400}$/;

/**
 * The handoff webhook's dead letters under `/api/v1/operator/webhook` (admins only: its route area's guard; docs/handoff.md,
 * "Webhook"): `GET /dead-letters?limit=` lists the events given up on, most recent first, with the
 * outbox's counts; `POST /dead-letters/:id/retry` puts one back in line for a new series of attempts
 * (audited as `handoff.webhook-retry`) and wakes the delivery loop.
 */
export function webhookRoutes(services: Services): Hono {
  const routes = new Hono();
  const { handoffs, operatorAuth } = services;

  routes.get('/dead-letters', async (c) => {
    const { limit } = validate(ListQuery, c.req.query(), 'query');
    c.header('Cache-Control', 'no-store');
    const webhook = handoffs.webhook;
    if (!webhook) {
      const none: WebhookDeadLettersResponse = { configured: false, pending: 0, dead: 0, deadLetters: [] };
      return c.json(none);
    }
    const [counts, dead] = await Promise.all([
      webhook.outbox.counts(),
      webhook.outbox.deadLetters(limit ?? 100),
    ]);
    const response: WebhookDeadLettersResponse = {
      configured: true,
      ...counts,
      deadLetters: dead.map(({ event, attempts, nextAttemptAt, lastError }) => ({
        id: event.id,
        type: event.type,
        at: event.at,
        sessionId: event.sessionId,
        queue: event.queue,
        attempts,
        givenUpAt: nextAttemptAt,
        lastError,
      })),
    };
    return c.json(response);
  });

  routes.post('/dead-letters/:eventId/retry', async (c) => {
    const id = c.req.param('eventId');
    const webhook = handoffs.webhook;
    if (!webhook)
      throw notFound('No handoff webhook is configured (option handoff.webhook): there are no dead letters.');
    if (!EVENT_ID.test(id) || !(await webhook.outbox.retry(id, new Date())))
      throw notFound(
        `No dead-lettered webhook event "${id}": list them with GET /api/v1/operator/webhook/dead-letters.`,
      );
    await operatorAuth.audit(operatorOf(c), 'handoff.webhook-retry', { detail: { eventId: id } });
    webhook.poke();
    const response: WebhookRetryResponse = { id, status: 'pending' };
    return c.json(response, 202);
  });

  return routes;
}
