import { PostgresHandoffQueue, PostgresSessionStore, PostgresSessionTokens } from '@treeagent/postgres';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../../core/src/test-support/cleanups-after-each.js';
import { createSession, postMessage, testApp } from '../test-support/fixtures.js';
import { handoffAgent } from '../test-support/handoff.js';
import { requirePostgres, TEST_DATABASE_URL, testSchema } from '../test-support/server-process.js';
import { webhookReceiver } from '../test-support/webhook-receiver.js';

const cleanups = cleanupsAfterEach();

describe('the handoff webhook on PostgreSQL', () => {
  it('two servers on one database (each its own pool and delivery loop, as two processes) share the outbox: each event is delivered once, whoever committed it; a server started later delivers what another left', async () => {
    await requirePostgres();
    const { schema, drop } = testSchema('outbox');
    cleanups.push(drop);
    const receiver = await webhookReceiver((index) => (index % 3 === 0 ? 503 : 204));
    cleanups.push(receiver.close);
    const server = (pollMs: number) => {
      const connection = TEST_DATABASE_URL;
      const sessionStore = new PostgresSessionStore({ connection, schema });
      const sessionTokens = new PostgresSessionTokens({ connection, schema });
      const queue = new PostgresHandoffQueue({ connection, schema });
      const made = testApp({
        agent: handoffAgent({ sessionStore }),
        sessionTokens,
        handoff: {
          queue,
          webhook: { url: receiver.url, secret: 'a-shared-webhook-secret', retryDelayMs: 10, pollMs },
        },
      });
      cleanups.push(async () => {
        await made.app.shutdown();
        await Promise.all([sessionStore.close(), sessionTokens.close(), queue.close()]);
      });
      return { ...made, sessionStore };
    };
    // Both processes poll often: they compete for every event.
    const first = server(15);
    const second = server(15);
    const sessions = await Promise.all(
      Array.from({ length: 6 }, async (_, index) => {
        const { app } = index % 2 ? second : first;
        const session = await createSession(app);
        expect((await postMessage(app, session, { message: 'a human please' })).status).toBe(200);
        return session.sessionId;
      }),
    );
    await expect.poll(() => receiver.accepted().length, { timeout: 10_000 }).toBe(6);
    // Let both loops run a while longer: nothing is sent twice once accepted.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const keys = receiver.accepted().map((hook) => String(hook.headers['idempotency-key']));
    expect(new Set(keys).size).toBe(6);
    expect(
      receiver
        .accepted()
        .map((hook) => JSON.parse(hook.body).sessionId)
        .sort(),
    ).toEqual([...sessions].sort());
    expect(await first.sessionStore.handoffOutbox().counts()).toEqual({ pending: 0, dead: 0 });

    // A process that stops with an event in the outbox: another one (started later) delivers it.
    await first.app.shutdown();
    await second.app.shutdown();
    const committed = await handoffAgent({ sessionStore: first.sessionStore }).send('late', 'human');
    expect(committed.status).toBe('handed-off');
    expect(await first.sessionStore.handoffOutbox().counts()).toEqual({ pending: 1, dead: 0 });
    server(15);
    await expect
      .poll(() => receiver.accepted().some((hook) => JSON.parse(hook.body).sessionId === 'late'), {
        timeout: 10_000,
      })
      .toBe(true);
  }, 60_000);
});
