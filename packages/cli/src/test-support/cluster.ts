/**
 * Several `treeagent serve` processes on one PostgreSQL schema behind a real HAProxy (Debian's
 * `haproxy`), all on 127.0.0.1: what the load-balancer test (`serve-cluster.int.test.ts`) and the
 * scale-out benchmark (`bench/cluster-load.ts`) start. Each process is `node --import tsx bin.ts
 * serve <tree.ts>` as users run it; HAProxy checks `/ready`, balances round-robin, names the process
 * that answered in `X-Served-By`, and retries a request on another process only when it never
 * reached one (connection refused) or was refused unsaved (503 while shutting down).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashOperatorPassword } from '@treeagent/server';

const BIN = fileURLToPath(new URL('../bin.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The API key every process accepts. */
export const CLUSTER_API_KEY = 'sk-cluster-test-0123456789abcdef';
/** The operator of the console (role operator) and the password. */
export const CLUSTER_OPERATOR = { login: 'bruno', password: 'a cluster operator password' };
/** A message that hands the session to the `cluster` queue. */
export const HANDOFF_MESSAGE = 'I want a human';

/**
 * The tree module every process serves: each turn counts itself in the session state (after a short
 * wait that widens race windows) and answers `turn <turn> count <count> re <message>`, so a lost
 * update shows as count ≠ turn; a message naming a human hands off. Mocks (labelled): an exact
 * embedder sends every message to the one node.
 */
const TREE_MODULE = `import { defineTree } from '@treeagent/core';
import { ExactEmbedder } from '@treeagent/core/test';

const delayMs = Number(process.env.TREEAGENT_TEST_TURN_DELAY_MS ?? 2);
export const embedder = new ExactEmbedder({ vectors: { hello: [1, 0] }, fallback: [1, 0] });
export default defineTree({
  name: 'cluster',
  nodes: [
    {
      id: 1,
      type: 'root',
      beforeRun: (_self, context) =>
        /human/i.test(context.input.original)
          ? { handoff: { reason: 'asked for a person', queue: 'cluster', message: 'An operator will answer you here.' } }
          : undefined,
    },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    {
      id: 3,
      type: 'emit',
      parent: 2,
      chunks: ['hello'],
      before: async (_self, context) => {
        const count = (context.sessionState.get('count') ?? 0) + 1;
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        context.sessionState.set('count', count);
      },
      emit: (_self, context) => ({
        message: { type: 'static', content: \`turn \${context.turn} count \${context.sessionState.get('count')} re \${context.input.original}\` },
      }),
    },
  ],
});
`;

/** A free TCP port on 127.0.0.1 (the OS's choice, released at once). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The files every process reads: the tree module, the API key file, the operators file. */
export async function writeClusterFiles(
  directory: string,
): Promise<{ tree: string; keys: string; operators: string }> {
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, 'package.json'), '{ "type": "module" }\n');
  const tree = join(directory, 'tree.ts');
  writeFileSync(tree, TREE_MODULE);
  const keys = join(directory, 'api-keys');
  writeFileSync(keys, `${CLUSTER_API_KEY}\n`);
  chmodSync(keys, 0o600);
  const operators = join(directory, 'operators.json');
  writeFileSync(
    operators,
    JSON.stringify({
      operators: [
        {
          id: CLUSTER_OPERATOR.login,
          name: 'Bruno',
          role: 'operator',
          passwordHash: await hashOperatorPassword(CLUSTER_OPERATOR.password),
        },
      ],
    }),
  );
  chmodSync(operators, 0o600);
  return { tree, keys, operators };
}

/** A `treeagent serve` child process on a fixed port. */
export interface ServeProcess {
  readonly port: number;
  readonly url: string;
  readonly child: ChildProcess;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  readonly exited: Promise<number | string | null>;
  stdout(): string;
  stderr(): string;
}

/** Options of one `treeagent serve` process of the cluster. */
export interface ServeProcessOptions {
  /** The tree, the API key file and the operators file (`writeClusterFiles`; another tree may replace its own). */
  files: { tree: string; keys: string; operators: string };
  port: number;
  /** Its data directory (with `databaseUrl`, only the embedding cache and fits). */
  data: string;
  /** PostgreSQL for every shared store (else SQLite in `data`), in `schema`. */
  databaseUrl?: string;
  schema?: string;
  /** More environment variables (e.g. TREEAGENT_TEST_TURN_DELAY_MS). */
  env?: Record<string, string>;
}

/** Starts `treeagent serve` and resolves once it listens. */
export async function startServeProcess(options: ServeProcessOptions): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      BIN,
      'serve',
      options.files.tree,
      '--port',
      String(options.port),
      '--data',
      options.data,
      ...(options.schema ? ['--schema', options.schema] : []),
      '--api-key-file',
      options.files.keys,
      '--operators',
      options.files.operators,
      '--shutdown-timeout',
      '5000',
      // Behind the load balancer, as docs/deployment.md says to run it: the client's address comes
      // from HAProxy's X-Forwarded-For.
      '--trust-proxy',
      '127.0.0.1',
      // A load test: every simulated user is on 127.0.0.1, so the per-session and per-address
      // message limits (a flood guard for one real client) would refuse the load itself.
      '--message-limit',
      '0',
      '--address-message-limit',
      '0',
    ],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...(options.databaseUrl ? { TREEAGENT_DATABASE_URL: options.databaseUrl } : {}),
        ...options.env,
      },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal)),
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve on ${options.port}: not listening within 90 s; stderr: ${stderr}`)),
      90_000,
    );
    child.stdout!.on('data', (chunk) => {
      stdout += String(chunk);
      if (stdout.includes('Listening on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve on ${options.port} exited (${code}) before listening: ${stderr}`));
    });
  });
  return {
    port: options.port,
    url: `http://127.0.0.1:${options.port}`,
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

/** The HAProxy binary, or an error that says how to install it (never a skip). */
export function haproxyBinary(): string {
  for (const candidate of ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'])
    if (existsSync(candidate)) return candidate;
  throw new Error(
    'HAProxy is not installed, and the load-balancer test needs a real one: run `apt-get install -y haproxy` as root (scripts/test-all.sh installs it).',
  );
}

/** A running HAProxy in front of the processes, with its admin socket. */
export interface LoadBalancer {
  readonly url: string;
  /** A command on the admin socket (`set server app/p0 state maint`, `show stat`…); its answer. */
  admin(command: string): Promise<string>;
  /** Waits until HAProxy's health checks say `server` is UP (true) or DOWN/MAINT (false). */
  waitFor(server: string, up: boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Starts HAProxy on 127.0.0.1 in front of `ports` (servers `p0`, `p1`, …). */
export async function startHaproxy(directory: string, ports: number[]): Promise<LoadBalancer> {
  const binary = haproxyBinary();
  mkdirSync(directory, { recursive: true });
  const port = await freePort();
  const socket = join(directory, 'admin.sock');
  const config = join(directory, 'haproxy.cfg');
  writeFileSync(
    config,
    `global
  maxconn 2000
  stats socket ${socket} mode 600 level admin

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  # A request is retried on another process only when it never reached one, or was refused unsaved
  # (503 SHUTTING_DOWN / SESSION_STORE: the turn committed nothing). Never on a lost response.
  retries 3
  option redispatch 1
  retry-on conn-failure 503

frontend web
  bind 127.0.0.1:${port}
  default_backend app

backend app
  balance roundrobin
  option forwardfor
  option httpchk GET /ready
  http-check expect status 200
  http-response set-header X-Served-By %s
  # A loaded machine may answer a check late: three misses in a row take a process out.
  timeout check 2s
  default-server inter 300ms fall 3 rise 2
${ports.map((serverPort, i) => `  server p${i} 127.0.0.1:${serverPort} check`).join('\n')}
`,
  );
  execFileSync(binary, ['-c', '-q', '-f', config]);
  const child = spawn(binary, ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const admin = (command: string) =>
    new Promise<string>((resolve, reject) => {
      const connection = createConnection(socket);
      let answer = '';
      connection.on('data', (chunk) => {
        answer += String(chunk);
      });
      connection.on('end', () => resolve(answer));
      connection.on('error', reject);
      connection.end(`${command}\n`);
    });
  const status = async (server: string) => {
    const lines = (await admin('show stat')).split('\n');
    const header = lines[0]!.replace(/^# /, '').split(',');
    const row = lines
      .map((line) => line.split(','))
      .find((cells) => cells[0] === 'app' && cells[1] === server);
    return row ? row[header.indexOf('status')] : undefined;
  };
  const waitFor = async (server: string, up: boolean, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    let last: string | undefined;
    while (Date.now() < deadline) {
      last = await status(server).catch(() => undefined);
      if (last !== undefined && (up ? last === 'UP' : last !== 'UP')) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(
      `HAProxy: ${server} is ${last ?? 'unknown'}, not ${up ? 'UP' : 'out of rotation'}, after ${timeoutMs} ms; ${stderr}`,
    );
  };
  for (let i = 0; i < ports.length; i++) await waitFor(`p${i}`, true);
  return {
    url: `http://127.0.0.1:${port}`,
    admin,
    waitFor,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** What a chat turn through the API answered: the turn and its text, and the process that served it. */
export interface TurnResult {
  status: number;
  turn?: number;
  content?: string;
  servedBy: string | null;
  body: unknown;
}

const bearer = { authorization: `Bearer ${CLUSTER_API_KEY}` };

/** A new session (`POST /api/v1/sessions`) at `url`: its id and token. */
export async function newSession(url: string): Promise<{ sessionId: string; token: string }> {
  const response = await fetch(`${url}/api/v1/sessions`, { method: 'POST', headers: bearer });
  if (response.status !== 201)
    throw new Error(`POST /api/v1/sessions: ${response.status} ${await response.text()}`);
  return (await response.json()) as { sessionId: string; token: string };
}

/** One message in a session; throws when no HTTP response arrived (connection reset or refused). */
export async function say(
  url: string,
  session: { sessionId: string; token: string },
  message: string,
): Promise<TurnResult> {
  const response = await fetch(`${url}/api/v1/sessions/${session.sessionId}/messages`, {
    method: 'POST',
    headers: { ...bearer, 'content-type': 'application/json', 'x-session-token': session.token },
    body: JSON.stringify({ message }),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  const output = body as { turn?: number; messages?: { content: string }[] };
  return {
    status: response.status,
    ...(response.status === 200 ? { turn: output.turn, content: output.messages?.[0]?.content ?? '' } : {}),
    servedBy: response.headers.get('x-served-by'),
    body,
  };
}

/** The session's history as the API returns it (role and content per entry, in order). */
export async function history(
  url: string,
  session: { sessionId: string; token: string },
): Promise<{ role: string; content: string; turn: number }[]> {
  const response = await fetch(`${url}/api/v1/sessions/${session.sessionId}/history`, {
    headers: { ...bearer, 'x-session-token': session.token },
  });
  if (response.status !== 200) throw new Error(`history: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { history: { role: string; content: string; turn: number }[] }).history;
}
