import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { HANDOFF_NOTICE } from '../../../server/src/test-support/handoff.js';
import { OPERATOR_PASSWORDS, testOperatorAccounts } from '../../../server/src/test-support/operators.js';
import {
  requirePostgres,
  startServerProcess,
  TEST_DATABASE_URL,
  testSchema,
} from '../../../server/src/test-support/server-process.js';
import { appMention, eventBody, FakeSlack, slackRequest } from '../test-support/fake-slack.js';

// Two server processes on one PostgreSQL schema: Slack's event lands on one and its retry on the
// other — both answered at once, their turns running after the answer — the operator works on the
// other; the fake Web API runs in this process on loopback.

const SCRIPT = fileURLToPath(new URL('../test-support/channel-server-process.ts', import.meta.url));
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

describe('Slack on two server processes (PostgreSQL)', () => {
  it('an event and its retry on two processes run one turn; the operator replies in the thread from the other', async () => {
    await requirePostgres();
    const fake = await FakeSlack.start();
    cleanups.push(() => fake.close());
    const { schema, drop } = testSchema('slack');
    cleanups.push(drop);
    const env = {
      TREEAGENT_TEST_OPERATORS: JSON.stringify({ operators: await testOperatorAccounts() }),
      TREEAGENT_TEST_SLACK: JSON.stringify({
        botToken: fake.botToken,
        signingSecret: fake.signingSecret,
        apiUrl: fake.apiUrl,
      }),
    };
    const start = async () => {
      const server = await startServerProcess([TEST_DATABASE_URL, schema], {
        script: SCRIPT,
        env,
        timeoutMs: 60_000,
      });
      cleanups.push(() => server.stop());
      return server;
    };
    const a = await start();
    const b = await start();
    const post = (url: string, body: string, retryNum?: number) => {
      const request = slackRequest(body, { secret: fake.signingSecret, ...(retryNum ? { retryNum } : {}) });
      return fetch(`${url}/channels/slack/webhook`, { method: 'POST', headers: request.headers, body });
    };
    const event = eventBody(
      appMention({ channel: 'C900', user: 'U33', text: 'I want a human', ts: '900.1' }),
      'Ev900',
    );
    const [first, retry] = await Promise.all([post(a.url, event), post(b.url, event, 1)]);
    expect([first.status, retry.status]).toEqual([200, 200]);
    const texts = () => fake.posts.map((item) => item.text);
    await expect.poll(texts, { timeout: 20_000 }).toEqual([HANDOFF_NOTICE]);

    const login = await fetch(`${b.url}/api/v1/operator/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ login: 'bruno', password: OPERATOR_PASSWORDS.bruno }),
    });
    const token = /treeagent_operator=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1]!;
    const headers = { 'X-Operator-Token': token, 'Content-Type': 'application/json' };
    let sessionId = '';
    await expect
      .poll(
        async () => {
          const list = (await (await fetch(`${b.url}/api/v1/operator/handoffs`, { headers })).json()) as {
            handoffs?: { sessionId: string }[];
          };
          sessionId = list.handoffs?.[0]?.sessionId ?? '';
          return list.handoffs?.length ?? 0;
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    const claim = await fetch(`${b.url}/api/v1/operator/handoffs/${sessionId}/claim`, {
      method: 'POST',
      headers,
      body: '{}',
    });
    expect(claim.status).toBe(200);
    const reply = await fetch(`${b.url}/api/v1/operator/handoffs/${sessionId}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ content: 'Ciao, sono Bruno.' }),
    });
    expect(reply.status).toBe(201);
    await expect
      .poll(texts, { timeout: 20_000 })
      .toEqual([
        HANDOFF_NOTICE,
        'Bruno Bianchi joined the conversation.',
        'Bruno Bianchi: Ciao, sono Bruno.',
      ]);
    expect(fake.posts.every((item) => item.channel === 'C900' && item.threadTs === '900.1')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(texts()).toHaveLength(3);
  }, 120_000);
});
