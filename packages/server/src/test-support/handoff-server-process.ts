/**
 * A help-desk server in a child process, for the handoff browser tests: the handoff test tree, the
 * web app, operators (from `TREEAGENT_TEST_OPERATORS`, JSON accounts) and every store on SQLite (one
 * process) or PostgreSQL (several processes, the bus on LISTEN/NOTIFY); the teams of
 * `TREEAGENT_TEST_TEAMS` (JSON `handoff.teams`, optional). Prints `{ url }` when it
 * listens; SIGTERM closes it.
 *
 * Usage: handoff-server-process.ts sqlite <directory> | postgres <url> <schema>
 */
import { pathToFileURL } from 'node:url';
import {
  PostgresAuditLog,
  PostgresEventBus,
  PostgresFileStore,
  PostgresHandoffQueue,
  PostgresOperatorRouting,
  PostgresOperatorSessions,
  PostgresSessionStore,
  PostgresSessionTokens,
} from '@treeagent/postgres';
import { openSqlite } from '@treeagent/sqlite';
import { operatorDirectory, parseOperatorAccounts } from '../operators/operator-accounts.js';
import { type ServeOptions, serve } from '../serve.js';
import { WEB_DIRECTORY } from '../web-directory.js';
import { handoffAgent } from './handoff.js';

async function main(): Promise<void> {
  const [kind, target, schema] = process.argv.slice(2);
  const accounts = parseOperatorAccounts(
    JSON.parse(process.env.TREEAGENT_TEST_OPERATORS ?? '{}'),
    'TREEAGENT_TEST_OPERATORS',
  );
  const teams = JSON.parse(process.env.TREEAGENT_TEST_TEAMS ?? '{}');
  let close: () => Promise<void>;
  let options: Pick<ServeOptions, 'agent' | 'sessionTokens' | 'operators' | 'handoff'>;
  if (kind === 'sqlite' && target) {
    const stores = openSqlite(target);
    close = stores.close;
    options = {
      agent: handoffAgent({ sessionStore: stores.sessionStore, fileStore: stores.fileStore }),
      sessionTokens: stores.sessionTokens,
      operators: {
        directory: operatorDirectory(accounts),
        sessions: stores.operatorSessions,
        auditLog: stores.auditLog,
      },
      handoff: { queue: stores.handoffQueue, routing: stores.operatorRouting, teams, streamPollMs: 5000 },
    };
  } else if (kind === 'postgres' && target && schema) {
    const connection = target;
    const sessionStore = new PostgresSessionStore({ connection, schema });
    const fileStore = new PostgresFileStore({ connection, schema });
    const sessionTokens = new PostgresSessionTokens({ connection, schema });
    const sessions = new PostgresOperatorSessions({ connection, schema });
    const auditLog = new PostgresAuditLog({ connection, schema });
    const queue = new PostgresHandoffQueue({ connection, schema });
    const routing = new PostgresOperatorRouting({ connection, schema });
    const bus = new PostgresEventBus({ connection, channel: `desk_${schema}` });
    await bus.ready();
    close = async () => {
      await Promise.all([
        sessionStore.close(),
        fileStore.close(),
        sessionTokens.close(),
        sessions.close(),
        auditLog.close(),
        queue.close(),
        routing.close(),
        bus.close(),
      ]);
    };
    options = {
      agent: handoffAgent({ sessionStore, fileStore }),
      sessionTokens,
      operators: { directory: operatorDirectory(accounts), sessions, auditLog },
      // A long poll: what reaches the other process on time comes through the bus.
      handoff: { queue, bus, routing, teams, streamPollMs: 60_000 },
    };
  } else {
    throw new Error('usage: handoff-server-process.ts sqlite <directory> | postgres <url> <schema>');
  }
  await options.agent.ready();
  const server = await serve({
    ...options,
    port: 0,
    hostname: '127.0.0.1',
    web: { directory: WEB_DIRECTORY },
    logger: { error: (message: string, details?: unknown) => console.error(message, details) },
  });
  process.stdout.write(`${JSON.stringify({ url: server.url, pid: process.pid })}\n`);
  process.once('SIGTERM', () => {
    void (async () => {
      await server.close({ timeoutMs: 2000, abortGraceMs: 500 });
      await close();
      process.exit(0);
    })();
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
