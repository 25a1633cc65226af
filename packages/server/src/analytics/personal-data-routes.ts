import type { AnalyticsStore } from '@treeagent/core';
import { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../http/read-json.js';
import { operatorOf } from '../operators/operator-auth.js';
import type { Services } from '../services.js';
import type { AnalyticsOptions } from './analytics-options.js';

const SessionIds = z.strictObject({
  sessionIds: z
    .array(z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'a session id'))
    .min(1)
    .max(100),
});

/**
 * `/api/v1/personal-data/*` (docs/privacy.md), behind the admin role (audited): a user's data on request.
 * `POST /export` `{ sessionIds }` returns every session's record, history, turn facts and file list;
 * `POST /delete` deletes them (record, history, turn facts, files, token) and says which existed.
 */
export function personalDataRoutes(services: Services, options: AnalyticsOptions): Hono {
  const routes = new Hono();
  const facts = (sessionId: string) => {
    const store =
      options.store ?? (services.agent.sessionStore as { analytics?: () => AnalyticsStore }).analytics?.();
    return store ? store.turns(sessionId) : Promise.resolve([]);
  };

  routes.post('/export', async (c) => {
    const { sessionIds } = await readJson(c, SessionIds);
    for (const sessionId of sessionIds) {
      await services.operatorAuth.audit(operatorOf(c), 'personal-data.export', { sessionId });
    }
    const sessions = [];
    for (const sessionId of sessionIds) {
      const [record, history, turnFacts] = await Promise.all([
        services.agent.sessionStore.load(sessionId),
        services.agent.history(sessionId),
        facts(sessionId),
      ]);
      sessions.push({
        sessionId,
        found: record !== null || turnFacts.length > 0,
        record,
        history,
        facts: turnFacts,
        files: record?.files ?? [],
      });
    }
    c.header('Content-Disposition', 'attachment; filename="personal-data.json"');
    return c.json({ exportedAt: new Date().toISOString(), sessions });
  });

  routes.post('/delete', async (c) => {
    const { sessionIds } = await readJson(c, SessionIds);
    const deleted: string[] = [];
    for (const sessionId of sessionIds) {
      await services.operatorAuth.audit(operatorOf(c), 'personal-data.delete', { sessionId });
      const existed =
        (await services.agent.sessionStore.load(sessionId)) !== null || (await facts(sessionId)).length > 0;
      await services.agent.deleteSession(sessionId);
      await services.tokens.delete(sessionId);
      if (existed) deleted.push(sessionId);
    }
    return c.json({ deleted });
  });

  return routes;
}
