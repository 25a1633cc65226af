import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError, invalidRequest, notFound } from '../../errors/api-error.js';
import { readJson } from '../../http/read-json.js';
import { storedSessionId } from '../../http/stored-session-id.js';
import { operatorOf } from '../../operators/operator-auth.js';
import type { Services } from '../../services.js';
import { requireVisibleHandoff } from '../handoff-queue-routes.js';

const PresenceBody = z.strictObject({ status: z.enum(['online', 'away', 'offline']) });
const TEAM = /^[A-Za-z0-9._-]{1,64}$/;
const TransferBody = z
  .strictObject({
    operatorId: z.string().min(1).max(64).optional(),
    team: z.string().regex(TEAM, 'a team is 1–64 letters, digits, ".", "_" or "-"').optional(),
    note: z.string().trim().min(1).max(5000).optional(),
  })
  .refine((body) => body.operatorId !== undefined || body.team !== undefined, {
    message: "give operatorId (pass it to an operator) or team (put it in that team's queue)",
    path: ['operatorId'],
  })
  .refine((body) => body.operatorId === undefined || body.team === undefined, {
    message:
      "give either operatorId (pass it to an operator) or team (put it in that team's queue), not both",
    path: ['operatorId'],
  });

/**
 * Teams and presence under `/api/v1/operator/routing` (operators; changes audited):
 * `GET /presence` → `{ presence, teams }` (who is online, away, offline; each team — configured,
 * with a queue or with an operator — its policy and whether it is open now); `PUT /presence` `{ status }` → the caller's presence (coming online
 * assigns them waiting conversations of their teams); `POST /handoffs/:id/transfer`
 * `{ operatorId | team, note? }` → pass a session on (the holder, or an admin), with an internal note.
 */
export function routingRoutes(services: Services): Hono {
  const routes = new Hono();
  const { handoffs, operatorAuth } = services;
  const router = handoffs.router;

  routes.get('/presence', async (c) => {
    const presence = await router.routing.presence();
    const open = await handoffs.queue.list({ status: 'open', limit: 1000 });
    // Every configured team, even with nobody online: a conversation may wait in its queue.
    const queues = new Set([
      ...router.configuredTeams,
      ...open.map((entry) => entry.queue),
      ...presence.flatMap((item) => item.teams),
    ]);
    const teams = [...queues].sort().map((team) => ({
      team,
      policy: router.team(team).policy ?? 'manual',
      open: router.isOpen(team),
    }));
    c.header('Cache-Control', 'no-store');
    return c.json({
      presence: presence.map((item) => ({ ...item, at: item.at.toISOString() })),
      teams,
    });
  });

  routes.put('/presence', async (c) => {
    const body = await readJson(c, PresenceBody);
    const operator = operatorOf(c);
    await operatorAuth.audit(operator, 'operator.presence', { detail: { status: body.status } });
    const presence = await router.setPresence(operator, body.status);
    await handoffs.bus.publish({ kind: 'queue' });
    return c.json({ presence: { ...presence, at: presence.at.toISOString() } });
  });

  routes.post('/handoffs/:id/transfer', async (c) => {
    const sessionId = storedSessionId(c.req.param('id'), 'handed-off session');
    const body = await readJson(c, TransferBody);
    const operator = operatorOf(c);
    const me = { id: operator.id, name: operator.name };
    let to: { operator: { id: string; name: string } } | { queue: string };
    if (body.operatorId !== undefined) {
      const target = (await router.routing.presence()).find((item) => item.operatorId === body.operatorId);
      if (!target || target.status === 'offline')
        throw invalidRequest(
          `Operator "${body.operatorId}" is not online or away: pass the session to someone who is, or to their team.`,
        );
      to = { operator: { id: target.operatorId, name: target.name } };
    } else to = { queue: body.team! };
    if (!(await handoffs.queue.get(sessionId)))
      throw notFound(`Session "${sessionId}" was never handed to people.`);
    // Another team's session is not found: an operator passes on only what they may see.
    await requireVisibleHandoff(services, operator, sessionId);
    const takeOver = operator.role === 'admin';
    const update = await handoffs.act(
      operator,
      sessionId,
      { type: 'transfer', operator: me, to, takeOver },
      {
        action: 'handoff.transfer',
        detail: 'queue' in to ? { team: to.queue } : { operatorId: to.operator.id },
      },
    );
    if (!update.handoff)
      throw new ApiError(409, 'HANDOFF', `Session "${sessionId}" is no longer with people.`);
    if (body.note) {
      await handoffs.queue.addNote(sessionId, {
        at: new Date().toISOString(),
        operator: me,
        text: body.note,
      });
      await handoffs.bus.publish({ kind: 'session', sessionId });
    }
    if ('queue' in to) await router.arrived(sessionId, to.queue);
    return c.json({ handoff: (await services.agent.inspectSession(sessionId))?.handoff ?? null });
  });

  return routes;
}
