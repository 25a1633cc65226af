import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@treeagent/sqlite';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../../core/src/test-support/cleanups-after-each.js';
import { createSession, postMessage, testApp } from '../test-support/fixtures.js';
import { handoffAgent } from '../test-support/handoff.js';
import { webhookReceiver } from '../test-support/webhook-receiver.js';

const SECRET = 'a-shared-webhook-secret';
const cleanups = cleanupsAfterEach();

describe('the handoff webhook’s outbox', () => {
  it('a delivery pending when the server stops is sent, with the same idempotency key, after a restart (SQLite)', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-outbox-'));
    cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
    const down = await webhookReceiver(() => 503);
    const up = await webhookReceiver();
    cleanups.push(down.close, up.close);

    // First life: the helpdesk is down; the event waits in the outbox of the SQLite file.
    const first = openSqlite(directory);
    const before = testApp({
      agent: handoffAgent({ sessionStore: first.sessionStore, fileStore: first.fileStore }),
      sessionTokens: first.sessionTokens,
      handoff: {
        queue: first.handoffQueue,
        webhook: { url: down.url, secret: SECRET, retryDelayMs: 60_000 },
      },
    });
    const session = await createSession(before.app);
    expect((await postMessage(before.app, session, { message: 'a human please' })).status).toBe(200);
    await expect.poll(() => down.received.length).toBe(1);
    await before.app.shutdown();
    const outbox = first.sessionStore.handoffOutbox();
    expect(await outbox.counts()).toEqual({ pending: 1, dead: 0 });
    await first.close();

    // Second life, on the same file: the pending delivery is made (its lease and retry time passed).
    const second = openSqlite(directory);
    cleanups.push(() => second.close());
    const pending = await second.sessionStore.handoffOutbox().lease(new Date(Date.now() + 120_000), 10, 0);
    expect(pending.map((delivery) => [delivery.event.type, delivery.event.sessionId])).toEqual([
      ['handoff.started', session.sessionId],
    ]);
    await second.sessionStore.handoffOutbox().failed(pending[0]!.event.id, 'test: due now', new Date());
    const after = testApp({
      agent: handoffAgent({ sessionStore: second.sessionStore, fileStore: second.fileStore }),
      sessionTokens: second.sessionTokens,
      handoff: { queue: second.handoffQueue, webhook: { url: up.url, secret: SECRET, pollMs: 20 } },
    });
    cleanups.push(() => void after.app.shutdown());
    await expect.poll(() => up.received.length).toBe(1);
    const delivered = up.received[0]!;
    expect(delivered.headers['idempotency-key']).toBe(down.received[0]!.headers['idempotency-key']);
    expect(JSON.parse(delivered.body)).toMatchObject({
      type: 'handoff.started',
      sessionId: session.sessionId,
      queue: 'support',
      reason: 'asked for a person',
    });
    await expect.poll(() => second.sessionStore.handoffOutbox().counts()).toEqual({ pending: 0, dead: 0 });
  });

  it('the transition and its event are one commit: the event is in the outbox before any delivery', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-outbox-'));
    cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
    const stores = openSqlite(directory);
    cleanups.push(() => stores.close());
    const outbox = stores.sessionStore.handoffOutbox();
    const agent = handoffAgent({ sessionStore: stores.sessionStore, fileStore: stores.fileStore });
    // The engine alone, no server and no delivery loop: the commit wrote the event.
    const output = await agent.send('s1', 'a human please');
    expect(output.status).toBe('handed-off');
    const [started] = await outbox.lease(new Date(), 10, 60_000);
    expect(started?.event).toMatchObject({
      type: 'handoff.started',
      sessionId: 's1',
      at: output.handoff!.since,
    });
    await agent.handoffAction('s1', {
      type: 'end',
      operator: { id: 'anna', name: 'Anna' },
      outcome: 'closed',
    });
    const [ended] = await outbox.lease(new Date(), 10, 60_000);
    expect(ended?.event).toMatchObject({
      type: 'handoff.ended',
      outcome: 'closed',
      operator: { id: 'anna', name: 'Anna' },
    });
    expect(ended!.event.id).not.toBe(started!.event.id);
    // A claim makes no event.
    await agent.send('s2', 'a human please');
    await outbox.lease(new Date(), 10, 60_000);
    await agent.handoffAction('s2', { type: 'claim', operator: { id: 'anna', name: 'Anna' } });
    expect(await outbox.lease(new Date(Date.now() + 120_000), 10, 60_000)).toHaveLength(3);
  });

  it('after maxAttempts an event is dead-lettered: logged, counted in the metrics, kept for inspection', async () => {
    const failing = await webhookReceiver(() => 500);
    cleanups.push(failing.close);
    const { app, agent, logger } = testApp({
      agent: handoffAgent(),
      handoff: {
        webhook: { url: failing.url, secret: SECRET, maxAttempts: 3, retryDelayMs: 5, pollMs: 20 },
      },
    });
    cleanups.push(() => void app.shutdown());
    const session = await createSession(app);
    await postMessage(app, session, { message: 'a human please' });
    await expect.poll(() => failing.received.length).toBe(3);
    const keys = new Set(failing.received.map((hook) => hook.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    await expect
      .poll(() => logger.entries.map((entry) => entry.message).join('\n'))
      .toMatch(/did not accept handoff\.started .* after 3 attempt\(s\): HTTP 500\. It is dead-lettered/);
    const metrics = await (await app.request('/metrics')).text();
    expect(metrics).toContain('treeagent_handoff_webhook_outbox{status="dead"} 1');
    expect(metrics).toContain('treeagent_handoff_webhook_outbox{status="pending"} 0');
    expect(metrics).toContain('treeagent_handoff_webhook_deliveries_total{result="retried"} 2');
    expect(metrics).toContain('treeagent_handoff_webhook_deliveries_total{result="dead"} 1');
    const dead = await agent.sessionStore.handoffOutbox!().deadLetters();
    expect(dead.map((delivery) => [delivery.attempts, delivery.lastError])).toEqual([[3, 'HTTP 500']]);
    // A 4xx other than 429 is final at once.
    const refusing = await webhookReceiver(() => 410);
    cleanups.push(refusing.close);
    const other = testApp({
      agent: handoffAgent(),
      handoff: { webhook: { url: refusing.url, secret: SECRET, retryDelayMs: 5, pollMs: 20 } },
    });
    cleanups.push(() => void other.app.shutdown());
    await postMessage(other.app, await createSession(other.app), { message: 'human' });
    await expect.poll(() => other.logger.entries.length).toBe(1);
    expect(refusing.received).toHaveLength(1);
  });

  it('a deleted session takes its pending and dead deliveries with it: nothing of it is retried or sent later', async () => {
    const failing = await webhookReceiver(() => 500);
    cleanups.push(failing.close);
    const { app, agent } = testApp({
      agent: handoffAgent(),
      handoff: {
        webhook: { url: failing.url, secret: SECRET, maxAttempts: 1, retryDelayMs: 5, pollMs: 20 },
      },
    });
    cleanups.push(() => void app.shutdown());
    const outbox = agent.sessionStore.handoffOutbox!();
    const gone = await createSession(app);
    const kept = await createSession(app);
    await postMessage(app, gone, { message: 'a human please' });
    await postMessage(app, kept, { message: 'a human please' });
    await expect.poll(async () => (await outbox.deadLetters()).length).toBe(2);
    const deleted = await app.request(`/api/v1/sessions/${gone.sessionId}`, {
      method: 'DELETE',
      headers: { 'X-Session-Token': gone.token },
    });
    expect(deleted.status).toBe(204);
    expect(await outbox.sessionDeliveries([gone.sessionId])).toEqual([]);
    expect((await outbox.deadLetters()).map((delivery) => delivery.event.sessionId)).toEqual([
      kept.sessionId,
    ]);
  });
});
