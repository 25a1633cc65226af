import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess } from '../../../server/src/test-support/server-process.js';
import { directMessage, eventBody, FakeSlack, slackRequest } from '../test-support/fake-slack.js';

// The inbox: a real server process on a real SQLite file answers Slack's event (200, at once), then
// is killed (SIGKILL) while the turn's commit is held — after the answer, before the commit. Slack
// does not send an acknowledged event again, so only the inbox can bring it back: a new process on
// the same file runs the turn once and sends the answer once; Slack's retry of the same event after
// that runs nothing. The fake Slack Web API runs in this process on loopback.

const SCRIPT = fileURLToPath(new URL('../test-support/channel-crash-process.ts', import.meta.url));
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

describe('a server killed after acknowledging a Slack event, before its turn commits', () => {
  it('runs the turn after the restart and sends the answer once; Slack’s retry runs nothing', async () => {
    const fake = await FakeSlack.start();
    cleanups.push(() => fake.close());
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-slack-crash-'));
    cleanups.push(async () => rmSync(directory, { recursive: true, force: true }));
    const slack = JSON.stringify({
      botToken: fake.botToken,
      signingSecret: fake.signingSecret,
      apiUrl: fake.apiUrl,
    });
    const start = async (hold: boolean) => {
      const server = await startServerProcess([directory], {
        script: SCRIPT,
        env: { TREEAGENT_TEST_SLACK: slack, TREEAGENT_TEST_HOLD_COMMIT: hold ? '1' : '0' },
        timeoutMs: 60_000,
      });
      cleanups.push(() => server.stop());
      return server;
    };
    const body = eventBody(
      directMessage({ channel: 'D555', user: 'U77', text: 'hello', ts: '70.1' }),
      'Ev70',
    );
    const post = (url: string, retryNum?: number) => {
      const request = slackRequest(body, {
        secret: fake.signingSecret,
        ...(retryNum ? { retryNum } : {}),
      });
      return fetch(`${url}/channels/slack/webhook`, {
        method: 'POST',
        headers: request.headers,
        body,
      });
    };
    const texts = () => fake.posts.map((item) => item.text);

    const first = await start(true);
    // Acknowledged at once, as Slack requires …
    expect((await post(first.url)).status).toBe(200);
    // … and the turn is running: its commit is held. The process dies there.
    await expect.poll(() => first.stderr(), { timeout: 30_000 }).toContain('commit held');
    expect(await first.kill()).toBe('SIGKILL');
    expect(texts()).toEqual([]);

    const second = await start(false);
    await expect.poll(() => texts(), { timeout: 45_000 }).toEqual(['Hi! How can I help?']);
    // Slack retries the event (it thinks the answer was late): nothing runs again.
    expect((await post(second.url, 1)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(texts()).toEqual(['Hi! How can I help?']);
    expect(second.stderr()).not.toMatch(/given up|dead-lettered/);
  }, 150_000);
});
