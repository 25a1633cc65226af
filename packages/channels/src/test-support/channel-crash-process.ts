/**
 * A server with a messaging channel on a SQLite data directory in a child process, for the crash
 * tests: the server tests' shop, and the Telegram channel of `TREEAGENT_TEST_TELEGRAM`
 * (`{ token, secretToken, apiRoot }`) or the Slack channel of `TREEAGENT_TEST_SLACK`
 * (`{ botToken, signingSecret, apiUrl }`), each a local fake. With `TREEAGENT_TEST_KILL_AFTER_COMMIT=1`
 * the process kills itself (SIGKILL, nothing flushed or settled) as soon as a turn's commit returns —
 * between the commit and anything after it, the delivery included. With
 * `TREEAGENT_TEST_HOLD_COMMIT=1` a turn's commit never happens: the process writes `commit held` on
 * stderr and waits, for the test to kill it before the turn commits. The inbox's lease is 1 s, so a
 * restarted process takes a dead one's messages soon. Prints `{ url }` when it listens. With
 * `TREEAGENT_TEST_CRASH_POSTGRES` (`{ url, schema }`) the sessions, the inbox and the outbox are in
 * that PostgreSQL schema instead (the data directory is unused), so several processes share them.
 *
 * Usage: channel-crash-process.ts <data directory>
 */
import { pathToFileURL } from 'node:url';
import type { SessionCommit } from '@treeagent/core/adapter';
import { PostgresSessionStore } from '@treeagent/postgres';
import { serve } from '@treeagent/server';
import { openSqlite } from '@treeagent/sqlite';
import { handoffAgent } from '../../../server/src/test-support/handoff.js';
import { SlackChannel } from '../slack/slack-channel.js';
import { TelegramChannel } from '../telegram/telegram-channel.js';

async function main(): Promise<void> {
  const [directory] = process.argv.slice(2);
  if (!directory) throw new Error('usage: channel-crash-process.ts <data directory>');
  const postgres = process.env.TREEAGENT_TEST_CRASH_POSTGRES;
  const stores = postgres ? postgresStores(JSON.parse(postgres)) : openSqlite(directory);
  if (process.env.TREEAGENT_TEST_KILL_AFTER_COMMIT === '1') {
    const store = stores.sessionStore;
    const commit = store.commit.bind(store);
    store.commit = async (value: SessionCommit) => {
      await commit(value);
      if (value.inbound) process.kill(process.pid, 'SIGKILL');
    };
  }
  if (process.env.TREEAGENT_TEST_HOLD_COMMIT === '1') {
    const store = stores.sessionStore;
    const commit = store.commit.bind(store);
    store.commit = async (value: SessionCommit) => {
      if (!value.inbound) return commit(value);
      process.stderr.write('commit held\n');
      await new Promise<never>(() => {});
    };
  }
  const slack = process.env.TREEAGENT_TEST_SLACK;
  const channel = slack
    ? new SlackChannel(JSON.parse(slack))
    : new TelegramChannel(JSON.parse(process.env.TREEAGENT_TEST_TELEGRAM ?? '{}'));
  const agent = handoffAgent({
    sessionStore: stores.sessionStore,
    ...(stores.fileStore ? { fileStore: stores.fileStore } : {}),
  });
  await agent.ready();
  const server = await serve({
    agent,
    channels: {
      channels: [channel],
      retryDelayMs: 50,
      pollMs: 100,
      inbox: { leaseMs: 1000 },
    },
    port: 0,
    hostname: '127.0.0.1',
    logger: { error: (message: string, details?: unknown) => console.error(message, details) },
  });
  process.stdout.write(`${JSON.stringify({ url: server.url, pid: process.pid })}\n`);
  process.once('SIGTERM', () => {
    void (async () => {
      await server.close({ timeoutMs: 2000, abortGraceMs: 500 });
      await stores.close();
      process.exit(0);
    })();
  });
}

/** The session store (with its channel inbox and outbox) in a PostgreSQL schema, as `openSqlite`'s shape. */
function postgresStores({ url, schema }: { url: string; schema: string }) {
  const sessionStore = new PostgresSessionStore({ connection: url, schema });
  return { sessionStore, fileStore: undefined, close: () => sessionStore.close() };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
