/**
 * A real server process for the kill and multi-process integration tests. Run as a child with
 * `node --import tsx`:
 *
 *   server-process.ts sqlite <directory>
 *   server-process.ts postgres <url> <schema>
 *
 * It starts `serve()` on 127.0.0.1, port 0, with a small tree and the chosen session store, and
 * prints one JSON line `{"url":"http://127.0.0.1:…","pid":…}` on stdout once the tree is loaded.
 * Sessions are shared between processes through the OpenAI-compatible endpoint: `X-Session-Id: <id>`
 * names the session `openAiEngineSessionId(SERVER_PROCESS_API_KEY, id)` in the store (the API key's
 * namespace), with no per-session token. Every request needs
 * `Authorization: Bearer <SERVER_PROCESS_API_KEY>`.
 *
 * Each turn routes to one node whose `before` counts turns in the session state (after a short wait,
 * `TREEAGENT_TEST_TURN_DELAY_MS`, default 5 ms, to widen race windows) and whose message is
 * `turn <turn> count <count> re <message>`: a lost update shows as count ≠ turn.
 * SIGTERM closes the server gracefully, then the store, then exits 0.
 *
 * Imported (not run), the module gives the tests' side: `startServerProcess` and `chat`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BeforeCallback, defineTree, MessageType, TreeAgent } from '@treeagent/core';
import type { FileStore, SessionStore } from '@treeagent/core/adapter';
import { ExactEmbedder } from '@treeagent/core/test';
import { PostgresFileStore, PostgresSessionStore, PostgresSessionTokens } from '@treeagent/postgres';
import { openSqlite } from '@treeagent/sqlite';
import pg from 'pg';
import type { SessionTokens } from '../auth/session-tokens.js';
import { serve } from '../serve.js';

/** The API key the server process accepts. */
export const SERVER_PROCESS_API_KEY = 'sk-server-process';
/** The tree's name, i.e. the OpenAI `model`. */
export const SERVER_PROCESS_MODEL = 'kill-shop';

interface OpenedStores {
  store: SessionStore;
  fileStore: FileStore;
  sessionTokens: SessionTokens;
  close: () => Promise<void>;
}

function openStore(argv: string[]): OpenedStores {
  const [kind, target, schema] = argv;
  if (kind === 'sqlite' && target) {
    // A short lease by default; TREEAGENT_TEST_LEASE_MS sets another (the takeover test uses the
    // default 30 s, to show a dead holder is detected without waiting for its lease).
    const leaseMs = Number(process.env.TREEAGENT_TEST_LEASE_MS ?? 1000);
    const stores = openSqlite(target, { lock: { leaseMs, timeoutMs: 20_000 } });
    return {
      store: stores.sessionStore,
      fileStore: stores.fileStore,
      sessionTokens: stores.sessionTokens,
      close: stores.close,
    };
  }
  if (kind === 'postgres' && target && schema) {
    const store = new PostgresSessionStore({ connection: target, schema, lockTimeoutMs: 20_000 });
    const fileStore = new PostgresFileStore({ connection: target, schema });
    const sessionTokens = new PostgresSessionTokens({ connection: target, schema });
    return {
      store,
      fileStore,
      sessionTokens,
      close: async () => {
        await Promise.all([store.close(), fileStore.close(), sessionTokens.close()]);
      },
    };
  }
  throw new Error('usage: server-process.ts sqlite <directory> | postgres <url> <schema>');
}

function agentOn(sessionStore: SessionStore, fileStore: FileStore): TreeAgent {
  const delayMs = Number(process.env.TREEAGENT_TEST_TURN_DELAY_MS ?? 5);
  const before: BeforeCallback = async (_self, context) => {
    const count = ((context.sessionState.get('count') as number | undefined) ?? 0) + 1;
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    context.sessionState.set('count', count);
  };
  return new TreeAgent({
    tree: defineTree({
      name: SERVER_PROCESS_MODEL,
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: ['hello'],
          before,
          emit: (_self, context) => ({
            message: {
              type: MessageType.STATIC,
              content: `turn ${context.turn} count ${context.sessionState.get('count')} re ${context.input.original}`,
            },
          }),
        },
      ],
    }),
    // Every message routes to node 3.
    embedder: new ExactEmbedder({ vectors: { hello: [1, 0] }, fallback: [1, 0] }),
    sessionStore,
    fileStore,
  });
}

async function main(): Promise<void> {
  const { store, fileStore, sessionTokens, close } = openStore(process.argv.slice(2));
  const agent = agentOn(store, fileStore);
  await agent.ready();
  const server = await serve({
    agent,
    port: 0,
    hostname: '127.0.0.1',
    apiKeys: [SERVER_PROCESS_API_KEY],
    sessionTokens,
    // The tests race many turns on a few sessions from one address.
    messageLimit: { perSession: false, perAddress: false },
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

const SCRIPT = fileURLToPath(import.meta.url);
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** A server child process. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit signal or code. */
  exited: Promise<NodeJS.Signals | number | null>;
  /** What the child wrote on stderr so far. */
  stderr(): string;
  /** `kill -9`, then waits for the exit. */
  kill(): Promise<NodeJS.Signals | number | null>;
  /** SIGTERM (graceful close), then waits for the exit (SIGKILL after `timeoutMs`). */
  stop(timeoutMs?: number): Promise<NodeJS.Signals | number | null>;
}

/**
 * `startServerProcess` for the tests of one file: every process it starts is killed by `cleanups`
 * (`cleanupsAfterEach()`) after the test.
 */
export function serverStarter(
  cleanups: (() => unknown)[],
): (args: readonly string[], options?: Parameters<typeof startServerProcess>[1]) => Promise<ServerProcess> {
  return async (args, options) => {
    const server = await startServerProcess(args, options);
    cleanups.push(() => server.kill());
    return server;
  };
}

/** Starts `server-process.ts` (or another `script` that prints `{ url }`) with `args` and waits for its URL (at most `timeoutMs`). */
export async function startServerProcess(
  args: readonly string[],
  {
    timeoutMs = 20_000,
    env = {},
    script = SCRIPT,
  }: { timeoutMs?: number; env?: Record<string, string>; script?: string } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    return exited;
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no URL within ${timeoutMs} ms; stderr: ${stderr}`)),
        timeoutMs,
      );
      createInterface({ input: child.stdout! }).on('line', (line) => {
        try {
          const { url } = JSON.parse(line) as { url?: string };
          if (!url) return;
          clearTimeout(timer);
          resolve(url);
        } catch {
          // Not the URL line.
        }
      });
      void exited.then((how) => {
        clearTimeout(timer);
        reject(new Error(`the server process exited (${how}) before listening; stderr: ${stderr}`));
      });
    });
    return {
      url,
      child,
      exited,
      stderr: () => stderr,
      kill,
      stop: async (stopTimeoutMs = 5000) => {
        if (child.exitCode !== null || child.signalCode !== null) return exited;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
        const how = await exited;
        clearTimeout(timer);
        return how;
      },
    };
  } catch (error) {
    await kill();
    throw error;
  }
}

/** The outcome of one chat completion: `turn` only when acknowledged (200 with a complete body). */
export interface ChatResult {
  status: number;
  turn?: number;
  content?: string;
  body: unknown;
}

/** Sends `message` to the session `sessionId` through `POST /v1/chat/completions` (non-streamed). */
export async function chat(url: string, sessionId: string, message: string): Promise<ChatResult> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${SERVER_PROCESS_API_KEY}`,
      'Content-Type': 'application/json',
      'X-Session-Id': sessionId,
    },
    body: JSON.stringify({ model: SERVER_PROCESS_MODEL, messages: [{ role: 'user', content: message }] }),
  });
  const body = (await response.json()) as {
    choices?: { message?: { content?: string } }[];
    treeagent?: { turn?: number };
  };
  if (response.status !== 200 || typeof body.treeagent?.turn !== 'number')
    return { status: response.status, body };
  return { status: 200, turn: body.treeagent.turn, content: body.choices?.[0]?.message?.content, body };
}

/** The PostgreSQL test server: `TREEAGENT_TEST_DATABASE_URL`, or the one `scripts/setup-postgres.sh` starts. */
export const TEST_DATABASE_URL =
  process.env.TREEAGENT_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:54329/treeagent_test';

/** Fails (never skips) with what to run when the PostgreSQL test server is unreachable. */
export async function requirePostgres(): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    const url = new URL(TEST_DATABASE_URL);
    if (url.password) url.password = '***';
    throw new Error(
      `The PostgreSQL test database ${url} is not reachable (${(error as Error).message || String(error)}): run scripts/setup-postgres.sh (as root) first, or set TREEAGENT_TEST_DATABASE_URL.`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

/** A fresh schema name for one test, and how to drop it. */
export function testSchema(label: string): { schema: string; drop: () => Promise<void> } {
  const schema = `t_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  return {
    schema,
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      client.on('error', () => {});
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
      } finally {
        await client.end().catch(() => {});
      }
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
