import { randomUUID } from 'node:crypto';
import type { CallbackRequest } from '@treeagent/core/adapter';
import { Hono } from 'hono';
import { z } from 'zod';
import type { CallbackRequestView, SessionCallbackResponse } from '../../api-types.js';
import { ApiError, notFound } from '../../errors/api-error.js';
import { readJson, validate } from '../../http/read-json.js';
import { operatorOf } from '../../operators/operator-auth.js';
import type { Services } from '../../services.js';

const PHONE = /^\+?[0-9 ()./-]{6,24}$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}\.[^\s@]{2,}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

const CallbackBody = z
  .strictObject({
    contact: z.strictObject({
      kind: z.enum(['phone', 'email'], 'contact.kind is "phone" or "email"'),
      value: z.string().trim().min(1, 'write the phone number or the e-mail address').max(254),
    }),
    window: z.strictObject({
      date: z.iso.date('window.date is a day written YYYY-MM-DD'),
      from: z.string().regex(TIME, 'window.from is a time written HH:MM'),
      to: z.string().regex(TIME, 'window.to is a time written HH:MM'),
    }),
  })
  .refine((body) => (body.contact.kind === 'phone' ? PHONE : EMAIL).test(body.contact.value), {
    message: 'contact.value is not a phone number (digits, spaces, + ( ) - .) or an e-mail address: check it',
    path: ['contact', 'value'],
  })
  .refine((body) => body.window.from < body.window.to, {
    message: 'window.to must come after window.from (e.g. 09:00 to 11:00)',
    path: ['window', 'to'],
  });

const ListQuery = z.strictObject({ status: z.enum(['open', 'done']).optional() });

/** A request as the APIs show it. */
function view(request: CallbackRequest, timeZone: string | null): CallbackRequestView {
  return {
    ...request,
    timeZone,
    createdAt: request.createdAt.toISOString(),
    doneAt: request.doneAt?.toISOString() ?? null,
  };
}

/**
 * `GET /sessions/:id/callback` and `POST /sessions/:id/callback` `{ contact, window }` (the session's
 * token): while the session waits in the queue of a team that is out of its business hours, the user
 * may leave a phone number or an e-mail address and a time window to be called back (201; one open
 * request per session, 409 otherwise). The GET says whether the form is offered and what was left.
 */
export function sessionCallbackRoutes(services: Services): Hono {
  const routes = new Hono();
  const { handoffs } = services;

  const offer = async (sessionId: string) => {
    const entry = await handoffs.queue.get(sessionId);
    const offered = !!entry && entry.status === 'waiting' && !handoffs.router.isOpen(entry.queue);
    return { entry, offered };
  };

  routes.get('/:id/callback', async (c) => {
    const sessionId = c.req.param('id');
    const { entry, offered } = await offer(sessionId);
    const requests = await handoffs.callbacks.sessionRequests([sessionId]);
    const open = requests.findLast((request) => request.status === 'open') ?? null;
    const timeZone = entry ? (handoffs.router.team(entry.queue).hours?.timeZone ?? null) : null;
    c.header('Cache-Control', 'no-store');
    return c.json({
      offered,
      timeZone,
      request: open ? view(open, timeZone) : null,
    } satisfies SessionCallbackResponse);
  });

  routes.post('/:id/callback', async (c) => {
    const sessionId = c.req.param('id');
    const body = await readJson(c, CallbackBody);
    const { entry, offered } = await offer(sessionId);
    if (!entry || !offered)
      throw new ApiError(
        409,
        'CALLBACK_NOT_OFFERED',
        'A callback can be asked only while the conversation waits for a team that is closed: write your message in the chat instead.',
      );
    const request: CallbackRequest = {
      id: randomUUID(),
      sessionId,
      team: entry.queue,
      contact: body.contact,
      window: body.window,
      status: 'open',
      createdAt: new Date(),
      doneAt: null,
      doneBy: null,
    };
    if (!(await handoffs.callbacks.add(request)))
      throw new ApiError(
        409,
        'CALLBACK_EXISTS',
        'A callback is already asked for this conversation: the team calls you back in the time you gave.',
      );
    await handoffs.bus.publish({ kind: 'queue' });
    const timeZone = handoffs.router.team(entry.queue).hours?.timeZone ?? null;
    return c.json({ request: view(request, timeZone) }, 201);
  });
  return routes;
}

/**
 * `/api/v1/operator/callbacks` (operators): `GET /?status=open|done` → `{ callbacks }` of the
 * caller's teams (an operator without teams and an admin: every team), oldest first;
 * `POST /:id/done` → `{ callback }` marks one done (audited `callback.done`, ids only).
 */
export function callbackQueueRoutes(services: Services): Hono {
  const routes = new Hono();
  const { handoffs, operatorAuth } = services;
  const teamsOf = (c: Parameters<typeof operatorOf>[0]) => {
    const operator = operatorOf(c);
    return operator.role === 'admin' || !operator.teams?.length ? undefined : operator.teams;
  };
  const zone = (team: string) => handoffs.router.team(team).hours?.timeZone ?? null;

  routes.get('/', async (c) => {
    const query = validate(ListQuery, c.req.query(), 'query');
    const callbacks = await handoffs.callbacks.list({ status: query.status, teams: teamsOf(c) });
    c.header('Cache-Control', 'no-store');
    return c.json({ callbacks: callbacks.map((request) => view(request, zone(request.team))) });
  });

  routes.post('/:id/done', async (c) => {
    const id = c.req.param('id');
    const request = await handoffs.callbacks.get(id);
    const teams = teamsOf(c);
    if (!request || (teams && !teams.includes(request.team)))
      throw notFound(
        `There is no callback request "${id}" in your teams: list them with GET /api/v1/operator/callbacks.`,
      );
    const operator = operatorOf(c);
    if (!(await handoffs.callbacks.done(id, operator.id, new Date())))
      throw new ApiError(409, 'CALLBACK_DONE', `The callback request "${id}" is already done.`);
    await operatorAuth.audit(operator, 'callback.done', {
      sessionId: request.sessionId,
      detail: { id, team: request.team },
    });
    await handoffs.bus.publish({ kind: 'queue' });
    return c.json({ callback: view((await handoffs.callbacks.get(id))!, zone(request.team)) });
  });
  return routes;
}
