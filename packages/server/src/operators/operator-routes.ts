import type { AuditRecord } from '@treeagent/core/adapter';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AuditLogResponse, OperatorSessionView } from '../api-types.js';
import { claimAuthAttempt } from '../http/rate-limit.js';
import { readJson, validate } from '../http/read-json.js';
import type { Services } from '../services.js';
import { operatorOf } from './operator-auth.js';

const LoginBody = z.strictObject({
  login: z.string().min(1).max(64),
  password: z.string().min(1).max(1024),
});

const AuditQuery = z.strictObject({
  sessionId: z.string().max(200).optional(),
  actorId: z.string().max(64).optional(),
  action: z.string().max(100).optional(),
  beforeId: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

/** An audit record as the API shows it. */
export function auditEntryView(record: AuditRecord): AuditLogResponse['entries'][number] {
  return { ...record, at: record.at.toISOString() };
}

/**
 * Operator authentication under `/api/v1/operator`: `POST /login` `{ login, password }` → 200
 * `{ operator, expiresAt }` and the login cookie; `POST /logout` → 204; `GET /me` → `{ operator }`;
 * `GET /audit` (admins) → the audit log, newest first.
 */
export function operatorRoutes(services: Services): Hono {
  const routes = new Hono();
  const auth = services.operatorAuth;

  routes.post('/login', async (c) => {
    const body = await readJson(c, LoginBody);
    // Counted as a failure before the (slow) password check: guesses sent at once cannot all pass.
    const attempt = claimAuthAttempt(c);
    const { operator, expiresAt } = await auth.login(c, body.login, body.password);
    attempt.succeeded();
    c.header('Cache-Control', 'no-store');
    const view: OperatorSessionView = { operator, expiresAt: expiresAt.toISOString() };
    return c.json(view);
  });

  routes.post('/logout', auth.require('operator'), async (c) => {
    await auth.audit(operatorOf(c), 'operator.logout', {});
    await auth.logout(c);
    return c.body(null, 204);
  });

  routes.get('/me', auth.require('operator'), (c) => {
    c.header('Cache-Control', 'no-store');
    const view: OperatorSessionView = { operator: operatorOf(c) };
    return c.json(view);
  });

  routes.get('/audit', auth.require('admin'), async (c) => {
    const query = validate(AuditQuery, c.req.query(), 'query');
    const limit = query.limit ?? 100;
    const records = await auth.auditLog.list({ ...query, limit });
    const response: AuditLogResponse = {
      entries: records.map(auditEntryView),
      nextBeforeId: records.length === limit ? records[records.length - 1]!.id : null,
    };
    c.header('Cache-Control', 'no-store');
    return c.json(response);
  });

  return routes;
}
