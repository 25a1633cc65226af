import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../../../core/src/test-support/cleanups-after-each.js';
import { operatorDirectory } from '../../operators/operator-accounts.js';
import { createSession, postMessage, testApp } from '../../test-support/fixtures.js';
import { handoffAgent } from '../../test-support/handoff.js';
import { loginOperator, testOperatorAccounts } from '../../test-support/operators.js';
import { webhookReceiver } from '../../test-support/webhook-receiver.js';
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from '../handoff-webhook.js';

const cleanups = cleanupsAfterEach();
const SECRET = 'a-shared-webhook-secret';

/** Escalation events posted to a real HTTP receiver on loopback, through the webhook's outbox. */
describe('escalation of long waits by webhook', () => {
  it('posts one signed handoff.escalated event (no user text, no summary) through the outbox, retried after a failure, and notes it', async () => {
    // The first escalation delivery fails: the outbox retries it.
    let escalations = 0;
    const receiver = await webhookReceiver(() => 204);
    cleanups.push(receiver.close);
    const { app, logger } = testApp({
      agent: handoffAgent(),
      operators: { directory: operatorDirectory(await testOperatorAccounts()) },
      handoff: {
        webhook: {
          url: receiver.url,
          secret: SECRET,
          retryDelayMs: 10,
          pollMs: 50,
          fetch: async (url, init) => {
            const headers = (init?.headers ?? {}) as Record<string, string>;
            if (headers['X-TreeAgent-Event'] === 'handoff.escalated') {
              escalations += 1;
              if (escalations === 1) return new Response(null, { status: 503 });
            }
            return fetch(url, init);
          },
        },
        escalation: { afterMs: 300, checkEveryMs: 100, webhook: true },
      },
    });
    cleanups.push(() => app.shutdown({ timeoutMs: 500 }));
    const session = await createSession(app);
    await postMessage(app, session, { message: 'I want a human about my secret order 98765' });
    const escalated = () =>
      receiver.accepted().filter((hook) => hook.headers['x-treeagent-event'] === 'handoff.escalated');
    await expect.poll(() => escalated().length, { timeout: 10_000 }).toBe(1);
    const [hook] = escalated();
    const event = JSON.parse(hook!.body);
    expect(event).toMatchObject({
      type: 'handoff.escalated',
      sessionId: session.sessionId,
      queue: 'support',
      summary: null,
    });
    expect(event.waitedMs).toBeGreaterThanOrEqual(300);
    expect(hook!.headers['idempotency-key']).toBe(event.id);
    expect(hook!.body).not.toContain('98765');
    // Signed as the handoff webhook's events are.
    const signature = String(hook!.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()]);
    const timestamp = Number(/t=(\d+)/.exec(signature)?.[1]);
    expect(signature).toBe(signWebhook(SECRET, timestamp, hook!.body));
    // The failed first attempt was retried from the outbox.
    expect(escalations).toBe(2);

    const bruno = await loginOperator(app, 'bruno');
    const detail = (await (
      await app.request(`/api/v1/operator/handoffs/${session.sessionId}`, {
        headers: { 'X-Operator-Token': bruno },
      })
    ).json()) as { notes: { text: string }[] };
    expect(detail.notes.map((note) => note.text)).toEqual([
      'Escalated: waited longer than 0 min; webhook event queued.',
    ]);
    // Later checks do not post again.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(escalated()).toHaveLength(1);
    expect(JSON.stringify(logger.entries)).not.toContain('98765');
  });

  it('refuses `webhook: true` without a handoff webhook, and an escalation with no way to escalate', () => {
    expect(() =>
      testApp({ agent: handoffAgent(), handoff: { escalation: { afterMs: 1000, webhook: true } } }),
    ).toThrow(
      'handoff.escalation.webhook is true but no handoff webhook is configured: set `handoff.webhook` ({ url, secret }) or remove `escalation.webhook`.',
    );
    expect(() => testApp({ agent: handoffAgent(), handoff: { escalation: { afterMs: 1000 } } })).toThrow(
      'handoff.escalation needs a way to escalate',
    );
  });
});
