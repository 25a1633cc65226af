import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess } from '../../../server/src/test-support/server-process.js';
import { FakeTelegram, telegramWebhook, textUpdate } from '../test-support/fake-telegram.js';

// The outbox in the turn's commit: a real server process on a real SQLite file is killed (SIGKILL)
// right after a turn's commit returns, before anything else runs; a new process on the same file
// sends the answer. The fake Bot API runs in this process on loopback.

const SCRIPT = fileURLToPath(new URL('../test-support/channel-crash-process.ts', import.meta.url));
const SECRET = 'webhook-secret_123';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

describe('a server killed between the turn’s commit and the delivery', () => {
  it('sends the answer after the restart, once; the platform’s redelivery runs nothing', async () => {
    const fake = await FakeTelegram.start();
    cleanups.push(() => fake.close());
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-crash-'));
    cleanups.push(async () => rmSync(directory, { recursive: true, force: true }));
    const telegram = JSON.stringify({ token: fake.token, secretToken: SECRET, apiRoot: fake.apiRoot });
    const start = async (kill: boolean) => {
      const server = await startServerProcess([directory], {
        script: SCRIPT,
        env: { TREEAGENT_TEST_TELEGRAM: telegram, TREEAGENT_TEST_KILL_AFTER_COMMIT: kill ? '1' : '0' },
        timeoutMs: 60_000,
      });
      cleanups.push(() => server.stop());
      return server;
    };
    const post = (url: string) => {
      const request = telegramWebhook(
        textUpdate({ updateId: 7001, chatId: 555, userId: 77, text: 'hello' }),
        SECRET,
      );
      return fetch(`${url}/channels/telegram/webhook`, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        duplex: 'half',
      } as RequestInit);
    };
    const first = await start(true);
    // The connection drops: the process died after the commit, before answering the webhook.
    await expect(post(first.url)).rejects.toThrow();
    expect(await first.exited).toBe('SIGKILL');
    expect(fake.received.filter((item) => item.kind === 'text')).toEqual([]);

    const second = await start(false);
    const texts = () => fake.received.filter((item) => item.kind === 'text');
    await expect.poll(() => texts().length, { timeout: 20_000 }).toBe(1);
    expect(texts()[0]).toMatchObject({ conversationId: '555', text: 'Hi! How can I help?' });
    // Telegram got no 200, so it delivers the update again: the receipt says it ran.
    expect((await post(second.url)).status).toBe(200);
    expect(texts()).toHaveLength(1);
    expect(second.stderr()).not.toMatch(/dead-lettered/);
  });
});
