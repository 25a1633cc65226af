import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../../core/src/test-support/cleanups-after-each.js';
import type { AuditLogResponse, ErrorBody, WebhookDeadLettersResponse } from '../api-types.js';
import { operatorDirectory } from '../operators/operator-accounts.js';
import { createSession, postMessage, testApp } from '../test-support/fixtures.js';
import { handoffAgent } from '../test-support/handoff.js';
import { loginOperator, testOperatorAccounts } from '../test-support/operators.js';
import { webhookReceiver } from '../test-support/webhook-receiver.js';

const SECRET = 'a-shared-webhook-secret';
const LIST = '/api/v1/operator/webhook/dead-letters';
const cleanups = cleanupsAfterEach();

/** A server whose helpdesk refuses the first delivery for good (HTTP 400) and accepts the rest. */
async function serverWithDeadLetter() {
  const receiver = await webhookReceiver((index) => (index === 0 ? 400 : 204));
  cleanups.push(receiver.close);
  const { app } = testApp({
    agent: handoffAgent(),
    operators: { directory: operatorDirectory(await testOperatorAccounts()) },
    handoff: { webhook: { url: receiver.url, secret: SECRET, retryDelayMs: 10, pollMs: 20 } },
  });
  cleanups.push(async () => {
    await app.shutdown();
  });
  const session = await createSession(app);
  expect((await postMessage(app, session, { message: 'a human please' })).status).toBe(200);
  await expect.poll(() => receiver.received.length).toBe(1);
  return { app, receiver, session };
}

describe('the webhook dead letters API (admins)', () => {
  it('refuses anyone but an admin: no login 401, a session token 401, an operator 403', async () => {
    const { app, receiver, session } = await serverWithDeadLetter();
    const retry = `${LIST}/${encodeURIComponent('any-id')}/retry`;
    for (const [path, method] of [
      [LIST, 'GET'],
      [retry, 'POST'],
    ] as const) {
      const anyoneButAnAdmin: Record<string, string>[] = [
        {},
        { 'X-Session-Token': session.token },
        { 'X-Operator-Token': session.token },
      ];
      for (const headers of anyoneButAnAdmin) {
        const response = await app.request(path, { method, headers });
        expect(response.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(((await response.json()) as ErrorBody).error.code).toBe('OPERATOR_LOGIN_REQUIRED');
      }
      const operator = await loginOperator(app, 'bruno');
      const refused = await app.request(path, { method, headers: { 'X-Operator-Token': operator } });
      expect(refused.status, `${method} ${path} as an operator`).toBe(403);
    }
    // Nothing was re-queued by the refused calls.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.received).toHaveLength(1);
  });

  it('lists the dead letter with its error; a retry re-queues it (audited) and the loop delivers it once', async () => {
    const { app, receiver, session } = await serverWithDeadLetter();
    const admin = { 'X-Operator-Token': await loginOperator(app, 'anna') };
    let list!: WebhookDeadLettersResponse;
    await expect
      .poll(async () => {
        list = (await (await app.request(LIST, { headers: admin })).json()) as WebhookDeadLettersResponse;
        return list.dead;
      })
      .toBe(1);
    expect(list).toMatchObject({ configured: true, pending: 0, dead: 1 });
    const [dead] = list.deadLetters;
    expect(dead).toMatchObject({
      type: 'handoff.started',
      sessionId: session.sessionId,
      queue: 'support',
      attempts: 1,
      lastError: 'HTTP 400',
    });
    expect(dead!.id).toBe(receiver.received[0]!.headers['idempotency-key']);

    const retried = await app.request(`${LIST}/${encodeURIComponent(dead!.id)}/retry`, {
      method: 'POST',
      headers: admin,
    });
    expect(retried.status).toBe(202);
    expect(await retried.json()).toEqual({ id: dead!.id, status: 'pending' });
    await expect.poll(() => receiver.accepted().length).toBe(1);
    expect(receiver.accepted()[0]!.headers['idempotency-key']).toBe(dead!.id);
    const after = (await (await app.request(LIST, { headers: admin })).json()) as WebhookDeadLettersResponse;
    expect(after).toMatchObject({ pending: 0, dead: 0, deadLetters: [] });

    // Delivered: nothing left to retry.
    const again = await app.request(`${LIST}/${encodeURIComponent(dead!.id)}/retry`, {
      method: 'POST',
      headers: admin,
    });
    expect(again.status).toBe(404);
    expect(((await again.json()) as ErrorBody).error.message).toContain(
      'GET /api/v1/operator/webhook/dead-letters',
    );

    const audit = (await (
      await app.request('/api/v1/operator/audit?action=handoff.webhook-retry', { headers: admin })
    ).json()) as AuditLogResponse;
    expect(audit.entries.map((entry) => [entry.actorId, entry.detail])).toEqual([
      ['anna', { eventId: dead!.id }],
    ]);
  });

  it('without a webhook: the list says so and a retry is a 404', async () => {
    const { app } = testApp({
      agent: handoffAgent(),
      operators: { directory: operatorDirectory(await testOperatorAccounts()) },
    });
    cleanups.push(async () => {
      await app.shutdown();
    });
    const admin = { 'X-Operator-Token': await loginOperator(app, 'anna') };
    expect(await (await app.request(LIST, { headers: admin })).json()).toEqual({
      configured: false,
      pending: 0,
      dead: 0,
      deadLetters: [],
    });
    const retry = await app.request(`${LIST}/x/retry`, { method: 'POST', headers: admin });
    expect(retry.status).toBe(404);
    expect(((await retry.json()) as ErrorBody).error.message).toContain('handoff.webhook');
  });
});
