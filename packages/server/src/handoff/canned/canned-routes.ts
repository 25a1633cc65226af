import { randomUUID } from 'node:crypto';
import type { CannedResponse } from '@treeagent/core/adapter';
import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError, notFound } from '../../errors/api-error.js';
import { readJson } from '../../http/read-json.js';
import { operatorOf } from '../../operators/operator-auth.js';
import type { Services } from '../../services.js';

const CannedBody = z.strictObject({
  shortcut: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/, 'a shortcut is 1–32 letters, digits, "-" or "_", without the "/"'),
  team: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'a team is 1–64 letters, digits, ".", "_" or "-"; null for every team')
    .nullable(),
  text: z.string().trim().min(1, 'the text is empty: write what the operator will send').max(5000),
});

/** A response as JSON. */
function view(response: CannedResponse) {
  return { ...response, updatedAt: response.updatedAt.toISOString() };
}

/**
 * Canned responses under `/api/v1/operator/canned` (operators read, admins change; changes
 * audited): `GET /` → `{ responses }` (an operator sees those of every team and of their teams; an
 * admin all), `POST /` `{ shortcut, team, text }` → `{ response }` (201), `PUT /:id` → `{ response }`,
 * `DELETE /:id` → 204. A shortcut already used in its team is a 409.
 */
export function cannedRoutes(services: Services): Hono {
  const routes = new Hono();
  const { handoffs, operatorAuth } = services;
  const canned = handoffs.canned;
  const admin = operatorAuth.require('admin');

  const save = async (response: CannedResponse) => {
    try {
      await canned.save(response);
    } catch (error) {
      if (error instanceof Error && error.name === 'DuplicateShortcutError')
        throw new ApiError(409, 'CANNED_CONFLICT', error.message);
      throw error;
    }
  };

  routes.get('/', async (c) => {
    const operator = operatorOf(c);
    const teams = operator.role === 'admin' ? [] : (operator.teams ?? []);
    const responses = (await canned.list()).filter(
      (response) => teams.length === 0 || response.team === null || teams.includes(response.team),
    );
    c.header('Cache-Control', 'no-store');
    return c.json({ responses: responses.map(view) });
  });

  routes.post('/', admin, async (c) => {
    const body = await readJson(c, CannedBody);
    const response = { id: randomUUID(), ...body, updatedAt: new Date() };
    await save(response);
    await operatorAuth.audit(operatorOf(c), 'canned.create', {
      detail: { id: response.id, shortcut: body.shortcut, team: body.team },
    });
    return c.json({ response: view(response) }, 201);
  });

  routes.put('/:id', admin, async (c) => {
    const id = c.req.param('id');
    const body = await readJson(c, CannedBody);
    if (!(await canned.list()).some((response) => response.id === id))
      throw notFound(`There is no canned response "${id}": list them with GET /api/v1/operator/canned.`);
    const response = { id, ...body, updatedAt: new Date() };
    await save(response);
    await operatorAuth.audit(operatorOf(c), 'canned.update', {
      detail: { id, shortcut: body.shortcut, team: body.team },
    });
    return c.json({ response: view(response) });
  });

  routes.delete('/:id', admin, async (c) => {
    const id = c.req.param('id');
    if (!(await canned.remove(id)))
      throw notFound(`There is no canned response "${id}": list them with GET /api/v1/operator/canned.`);
    await operatorAuth.audit(operatorOf(c), 'canned.delete', { detail: { id } });
    return c.body(null, 204);
  });

  return routes;
}
