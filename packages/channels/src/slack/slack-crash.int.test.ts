import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  requireDatabase,
  TEST_DATABASE_URL,
  testSchema,
  withClient,
} from '../../../postgres/src/test-support/database.js';
import { startServerProcess } from '../../../server/src/test-support/server-process.js';
import { directMessage, eventBody, FakeSlack, slackRequest } from '../test-support/fake-slack.js';

// The inbox: a real server process answers Slack's event (200, at once), then is killed (SIGKILL)
// while the turn's commit is held — after the answer, before the commit. Slack does not send an
// acknowledged event again, so only the inbox can bring it back: a new process on the same data
// runs the turn once and sends the answer once, and so does a process that was already running
// beside the dead one; Slack's retry of the same event after that runs nothing. On a real SQLite
// file and on a real PostgreSQL schema (several processes sharing the inbox). The fake Slack Web
// API runs in this process on loopback.

const SCRIPT = fileURLToPath(new URL('../test-support/channel-crash-process.ts', import.meta.url));
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

/** Where the processes keep their sessions, inbox and outbox: the data directory's SQLite file, or a PostgreSQL schema. */
const BACKENDS = [
  { name: 'a SQLite file', env: async (): Promise<Record<string, string>> => ({}), receipts: null },
  {
    name: 'PostgreSQL',
    env: async (): Promise<Record<string, string>> => {
      await requireDatabase();
      const { schema, drop } = testSchema('slack_crash');
      postgresSchema = schema;
      cleanups.push(drop);
      return { TREEAGENT_TEST_CRASH_POSTGRES: JSON.stringify({ url: TEST_DATABASE_URL, schema }) };
    },
    /** The receipts of the turns that ran, in the test's schema: proof the processes used it. */
    receipts: () =>
      withClient(async (client) => {
        // testSchema's names are lower-case letters, digits and underscores.
        const table = `"${postgresSchema}".treeagent_channel_receipts`;
        return (await client.query(`SELECT channel, message_id FROM ${table}`)).rows;
      }),
  },
];
let postgresSchema = '';

async function setUp(backend: (typeof BACKENDS)[number]) {
  const fake = await FakeSlack.start();
  cleanups.push(() => fake.close());
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-slack-crash-'));
  cleanups.push(async () => rmSync(directory, { recursive: true, force: true }));
  const slack = JSON.stringify({
    botToken: fake.botToken,
    signingSecret: fake.signingSecret,
    apiUrl: fake.apiUrl,
  });
  const stored = await backend.env();
  const start = async (hold: boolean) => {
    const server = await startServerProcess([directory], {
      script: SCRIPT,
      env: { ...stored, TREEAGENT_TEST_SLACK: slack, TREEAGENT_TEST_HOLD_COMMIT: hold ? '1' : '0' },
      timeoutMs: 60_000,
    });
    cleanups.push(() => server.stop());
    return server;
  };
  const body = eventBody(directMessage({ channel: 'D555', user: 'U77', text: 'hello', ts: '70.1' }), 'Ev70');
  const post = (url: string, retryNum?: number) => {
    const request = slackRequest(body, {
      secret: fake.signingSecret,
      ...(retryNum ? { retryNum } : {}),
    });
    return fetch(`${url}/channels/slack/webhook`, { method: 'POST', headers: request.headers, body });
  };
  const texts = () => fake.posts.map((item) => item.text);
  return { start, post, texts };
}

describe.each(BACKENDS)(
  'a server killed after acknowledging a Slack event, before its turn commits, on $name',
  (backend) => {
    it('runs the turn after the restart and sends the answer once; Slack’s retry runs nothing', async () => {
      const { start, post, texts } = await setUp(backend);
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

    it('a process already running beside the dead one takes its message: the answer is sent once', async () => {
      const { start, post, texts } = await setUp(backend);
      const dying = await start(true);
      const running = await start(false);
      expect((await post(dying.url)).status).toBe(200);
      await expect.poll(() => dying.stderr(), { timeout: 30_000 }).toContain('commit held');
      expect(await dying.kill()).toBe('SIGKILL');
      // The other process polls the shared inbox; the dead one's lease (1 s) runs out.
      await expect.poll(() => texts(), { timeout: 45_000 }).toEqual(['Hi! How can I help?']);
      expect((await post(running.url, 1)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(texts()).toEqual(['Hi! How can I help?']);
      expect(running.stderr()).not.toMatch(/given up|dead-lettered/);
    }, 150_000);
  },
);
