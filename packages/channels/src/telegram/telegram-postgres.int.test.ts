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
import { FakeTelegram, telegramWebhook, textUpdate } from '../test-support/fake-telegram.js';

// Two server processes on one PostgreSQL schema: Telegram's webhook lands on one, the operator works
// on the other; the fake Bot API runs in this process on loopback.

const SCRIPT = fileURLToPath(new URL('../test-support/channel-server-process.ts', import.meta.url));
const SECRET = 'webhook-secret_123';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

describe('Telegram on two server processes (PostgreSQL)', () => {
  it('the webhook lands on one process, the operator replies on the other, the user gets it once', async () => {
    await requirePostgres();
    const fake = await FakeTelegram.start();
    cleanups.push(() => fake.close());
    const { schema, drop } = testSchema('channels');
    cleanups.push(drop);
    const env = {
      TREEAGENT_TEST_OPERATORS: JSON.stringify({ operators: await testOperatorAccounts() }),
      TREEAGENT_TEST_TELEGRAM: JSON.stringify({
        token: fake.token,
        secretToken: SECRET,
        apiRoot: fake.apiRoot,
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
    const post = (url: string, update: Record<string, unknown>) => {
      const request = telegramWebhook(update, SECRET);
      return fetch(`${url}/channels/telegram/webhook`, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        duplex: 'half',
      } as RequestInit);
    };
    const chat = { chatId: 901, userId: 33 };
    expect((await post(a.url, textUpdate({ updateId: 1, ...chat, text: 'I want a human' }))).status).toBe(
      200,
    );
    // The same update redelivered to the other process runs nothing.
    expect((await post(b.url, textUpdate({ updateId: 1, ...chat, text: 'I want a human' }))).status).toBe(
      200,
    );
    const texts = () => fake.received.filter((item) => item.kind === 'text').map((item) => item.text);
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
          const list = (await (await fetch(`${b.url}/api/v1/operator/handoffs`, { headers })).json()) as any;
          sessionId = list.handoffs?.[0]?.sessionId ?? '';
          return sessionId !== '';
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    expect(
      (
        await fetch(`${b.url}/api/v1/operator/handoffs/${sessionId}/claim`, {
          method: 'POST',
          headers,
          body: '{}',
        })
      ).status,
    ).toBe(200);
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
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(texts()).toHaveLength(3);
  }, 120_000);
});
