import type { ChannelStore } from '@treeagent/core/adapter';
import { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../http/read-json.js';
import { STORED_SESSION_ID } from '../http/stored-session-id.js';
import { LEGACY_OPENAI_SESSION_ID } from '../openai/chat-session.js';
import { operatorOf } from '../operators/operator-auth.js';
import type { Services } from '../services.js';
import type { AnalyticsOptions } from './analytics-options.js';
import { PersonalData, USER_ID_PATTERN } from './personal-data.js';

/** A user (`userId` given at `POST /api/v1/sessions`) and/or sessions by id; at least one. */
export const PersonalDataRequest = z
  .strictObject({
    userId: z
      .string()
      .regex(
        USER_ID_PATTERN,
        '1–128 letters, digits and . _ : @ + - (the userId given when creating sessions)',
      )
      .optional(),
    channelUser: z
      .strictObject({
        channel: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, "a channel's name in the configuration"),
        userId: z.string().min(1).max(256),
      })
      .optional(),
    sessionIds: z
      .array(
        z
          .string()
          .refine(
            (id) => STORED_SESSION_ID.test(id) || LEGACY_OPENAI_SESSION_ID.test(id),
            'a session id: 1–300 letters, digits and _ : . - (every id the server creates)',
          ),
      )
      .min(1)
      .max(100)
      .optional(),
  })
  .refine(
    (body) => body.userId !== undefined || body.channelUser !== undefined || body.sessionIds !== undefined,
    {
      message:
        'name the user ("userId"), a messaging channel\'s user ("channelUser": { "channel", "userId" }) or the sessions ("sessionIds")',
    },
  );

/**
 * `/api/v1/personal-data/*` (docs/privacy.md), behind the admin role: one user's data on request.
 * `POST /export` `{ userId?, sessionIds? }` returns every session of the user (those created with
 * that `userId`) and those named: record, history, turn facts, files, handoff notes, audit entries.
 * `POST /delete` deletes them all and says which sessions had data. Both audited before they act.
 */
export function personalDataRoutes(services: Services, options: AnalyticsOptions): Hono {
  const routes = new Hono();
  const personalData = (c: Parameters<typeof operatorOf>[0]) => {
    const operator = operatorOf(c);
    return {
      actor: { id: operator.id, role: operator.role },
      service: new PersonalData({
        sessionStore: services.agent.sessionStore,
        fileStore: services.agent.fileStore,
        // Without a webhook now, the deliveries an earlier configuration left are still the user's.
        outbox: services.handoffs.outbox,
        callbacks: services.handoffs.callbacks,
        satisfaction: services.handoffs.satisfaction,
        // Without channels now, the identities an earlier configuration left are still the user's.
        channels:
          services.channels?.store ??
          (services.agent.sessionStore as { channelStore?: () => ChannelStore }).channelStore?.() ??
          null,
        deleteSessions: async (sessionIds) => {
          await services.agent.deleteSessions(sessionIds);
          for (const id of sessionIds) services.streams.endSession(id, 'session deleted');
        },
        tokens: services.tokens,
        auditLog: services.operatorAuth.auditLog,
        handoffQueue: services.handoffs.queue,
        ...(options.store ? { analytics: options.store } : {}),
        audit: (entry) =>
          services.operatorAuth.audit(operator, entry.action, {
            sessionId: entry.sessionId,
            detail: entry.detail,
          }),
      }),
    };
  };

  routes.post('/export', async (c) => {
    const body = await readJson(c, PersonalDataRequest);
    const { actor, service } = personalData(c);
    const exported = await service.export(body, actor);
    c.header('Content-Disposition', 'attachment; filename="personal-data.json"');
    c.header('Cache-Control', 'no-store');
    return c.json(exported);
  });

  routes.post('/delete', async (c) => {
    const body = await readJson(c, PersonalDataRequest);
    const { actor, service } = personalData(c);
    return c.json(await service.delete(body, actor));
  });

  return routes;
}
