/**
 * A server with a Telegram channel in a child process, for the PostgreSQL int test (two processes on
 * one schema): the server tests' handoff tree, operators from `TREEAGENT_TEST_OPERATORS`, every store
 * on PostgreSQL with the bus on LISTEN/NOTIFY, and the Telegram channel of `TREEAGENT_TEST_TELEGRAM`
 * (`{ token, secretToken, apiRoot }`, a local fake), or the Slack channel of `TREEAGENT_TEST_SLACK`
 * (`{ botToken, signingSecret, apiUrl }`) when it is set. Prints `{ url }` when it listens; SIGTERM closes it.
 *
 * Usage: channel-server-process.ts <postgres url> <schema>
 */
import { pathToFileURL } from 'node:url';
import {
  PostgresAuditLog,
  PostgresEventBus,
  PostgresFileStore,
  PostgresHandoffQueue,
  PostgresOperatorSessions,
  PostgresSessionStore,
  PostgresSessionTokens,
} from '@treeagent/postgres';
import { serve } from '@treeagent/server';
import { operatorDirectory, parseOperatorAccounts } from '../../../server/src/operators/operator-accounts.js';
import { handoffAgent } from '../../../server/src/test-support/handoff.js';
import { SlackChannel } from '../slack/slack-channel.js';
import { TelegramChannel } from '../telegram/telegram-channel.js';

async function main(): Promise<void> {
  const [connection, schema] = process.argv.slice(2);
  if (!connection || !schema) throw new Error('usage: channel-server-process.ts <postgres url> <schema>');
  const accounts = parseOperatorAccounts(
    JSON.parse(process.env.TREEAGENT_TEST_OPERATORS ?? '{}'),
    'TREEAGENT_TEST_OPERATORS',
  );
  const telegram = JSON.parse(process.env.TREEAGENT_TEST_TELEGRAM ?? '{}');
  const sessionStore = new PostgresSessionStore({ connection, schema });
  const fileStore = new PostgresFileStore({ connection, schema });
  const sessionTokens = new PostgresSessionTokens({ connection, schema });
  const sessions = new PostgresOperatorSessions({ connection, schema });
  const auditLog = new PostgresAuditLog({ connection, schema });
  const queue = new PostgresHandoffQueue({ connection, schema });
  const bus = new PostgresEventBus({ connection, channel: `desk_${schema}` });
  await bus.ready();
  const agent = handoffAgent({ sessionStore, fileStore });
  await agent.ready();
  const server = await serve({
    agent,
    sessionTokens,
    operators: { directory: operatorDirectory(accounts), sessions, auditLog },
    handoff: { queue, bus, streamPollMs: 60_000 },
    channels: {
      channels: process.env.TREEAGENT_TEST_SLACK
        ? [new SlackChannel(JSON.parse(process.env.TREEAGENT_TEST_SLACK))]
        : [new TelegramChannel(telegram)],
      retryDelayMs: 50,
      pollMs: 100,
    },
    port: 0,
    hostname: '127.0.0.1',
    logger: { error: (message: string, details?: unknown) => console.error(message, details) },
  });
  process.stdout.write(`${JSON.stringify({ url: server.url, pid: process.pid })}\n`);
  process.once('SIGTERM', () => {
    void (async () => {
      await server.close({ timeoutMs: 2000, abortGraceMs: 500 });
      await Promise.all([
        sessionStore.close(),
        fileStore.close(),
        sessionTokens.close(),
        sessions.close(),
        auditLog.close(),
        queue.close(),
        bus.close(),
      ]);
      process.exit(0);
    })();
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
