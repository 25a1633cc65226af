import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatTreeDocument } from '@treeagent/core/document';
import { hashOperatorPassword } from '@treeagent/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  requireDatabase,
  TEST_DATABASE_URL,
  testSchema,
} from '../../../postgres/src/test-support/database.js';

/**
 * `treeagent serve` as users run it: a child process (`node --import tsx bin.ts serve …`), on a JSON
 * tree with its callback module (SQLite, API key file, operators and the editor) and on a TypeScript
 * tree (PostgreSQL), chatting through the HTTP API, stopped by SIGTERM.
 */

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = fileURLToPath(new URL('../bin.ts', import.meta.url));
const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-serve-', import.meta.url)));
const API_KEY = 'sk-serve-test-0123456789abcdef';
const ADMIN_PASSWORD = 'an admin password';

interface Child {
  url: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

async function startServe(args: string[], env: Record<string, string> = {}): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, 'serve', ...args, '--port', '0'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 60 s; stderr: ${stderr}`)), 60_000);
    child.stdout!.on('data', (chunk) => {
      stdout += String(chunk);
      const match = /Listening on (http:\/\/\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then((code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
  return { url, child, stdout: () => stdout, stderr: () => stderr, exited };
}

async function stop(server: Child): Promise<number | null> {
  server.child.kill('SIGTERM');
  return server.exited;
}

/** A new session and a function that says something in it and returns the first answer's text. */
async function openChat(url: string, headers: Record<string, string> = {}) {
  const created = await fetch(`${url}/api/v1/sessions`, { method: 'POST', headers });
  expect(created.status).toBe(201);
  const { sessionId, token } = (await created.json()) as { sessionId: string; token: string };
  const say = async (message: string, at = url) => {
    const response = await fetch(`${at}/api/v1/sessions/${sessionId}/messages`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'x-session-token': token },
      body: JSON.stringify({ message }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return ((await response.json()) as { messages: { content: string }[] }).messages[0]?.content ?? '';
  };
  return { sessionId, token, say };
}

describe('treeagent serve', () => {
  beforeAll(() => {
    writeFileSync(join(scratch, 'package.json'), '{ "type": "module" }\n');
  });

  it('serves a JSON tree with its callback module; the editor is for admins, a save is served at once; SIGTERM stops it', async () => {
    const dir = mkdtempSync(join(scratch, 'json-'));
    writeFileSync(
      join(dir, 'shop.callbacks.ts'),
      `export const opening = () => ({ message: { type: 'static', content: 'Open from 9 to 18 (from the callback module).' } });\n`,
    );
    const treeFile = join(dir, 'shop.json');
    writeFileSync(
      treeFile,
      formatTreeDocument({
        format: 'treeagent-tree',
        version: 1,
        name: 'shop',
        module: './shop.callbacks.ts',
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, parent: 1, type: 'agent', name: 'assistant', isPrimary: true },
          {
            id: 3,
            parent: 2,
            type: 'emit',
            name: 'shipping',
            chunks: ['shipping'],
            emit: { message: { type: 'static', content: 'Shipping is 7.90.' } },
          },
          {
            id: 4,
            parent: 2,
            type: 'emit',
            name: 'hours',
            chunks: ['opening hours'],
            callbacks: { emit: 'opening' },
          },
        ],
      }),
    );
    const keys = join(dir, 'api-keys');
    writeFileSync(keys, `# the shop's front end\n${API_KEY}\n`);
    chmodSync(keys, 0o600);
    const operators = join(dir, 'operators.json');
    writeFileSync(
      operators,
      JSON.stringify({
        operators: [
          {
            id: 'anna',
            name: 'Anna',
            role: 'admin',
            passwordHash: await hashOperatorPassword(ADMIN_PASSWORD),
          },
        ],
      }),
    );
    chmodSync(operators, 0o600);
    const server = await startServe([
      treeFile,
      '--data',
      join(dir, 'data'),
      '--api-key-file',
      keys,
      '--operators',
      operators,
      '--editor',
    ]);
    expect(server.stdout()).toContain('JSON tree');
    expect(server.stdout()).toContain('(SQLite)');
    expect(server.stdout()).toContain('Hot reload: off');
    const bearer = { authorization: `Bearer ${API_KEY}` };
    expect((await fetch(`${server.url}/api/v1/sessions`, { method: 'POST' })).status).toBe(401);
    const chat = await openChat(server.url, bearer);
    expect(await chat.say('shipping')).toBe('Shipping is 7.90.');
    expect(await chat.say('opening hours')).toBe('Open from 9 to 18 (from the callback module).');
    // Never debug mode: no routing endpoint.
    expect((await fetch(`${server.url}/api/v1/route`, { method: 'POST', headers: bearer })).status).toBe(404);
    // The customer's chat page at /: no staff links, ids, timings or debug (the staff's under /staff/).
    expect(await (await fetch(`${server.url}/web-settings.json`)).json()).toEqual({ view: 'customer' });

    // The editor: not with the API key alone, nor a session token; an admin's login opens it.
    expect((await fetch(`${server.url}/api/v1/editor`, { headers: bearer })).status).toBe(401);
    expect(
      (await fetch(`${server.url}/api/v1/editor`, { headers: { ...bearer, 'x-operator-token': chat.token } }))
        .status,
    ).toBe(401);
    const login = await fetch(`${server.url}/api/v1/operator/login`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'anna', password: ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const operatorToken = /treeagent_operator=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1]!;
    const admin = { ...bearer, 'x-operator-token': operatorToken };
    const state = (await (await fetch(`${server.url}/api/v1/editor`, { headers: admin })).json()) as {
      version: string;
      editable: boolean;
      document: { nodes: { id: number; emit?: unknown }[] };
    };
    expect(state.editable).toBe(true);
    const edited = {
      ...state.document,
      nodes: state.document.nodes.map((node) =>
        node.id === 3
          ? { ...node, emit: { message: { type: 'static', content: 'Shipping is free.' } } }
          : node,
      ),
    };
    const saved = await fetch(`${server.url}/api/v1/editor`, {
      method: 'PUT',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ document: edited, baseVersion: state.version }),
    });
    expect(saved.status).toBe(200);
    expect(readFileSync(treeFile, 'utf8')).toContain('Shipping is free.');
    // Served without a restart, in the same session.
    let answer = '';
    for (let attempt = 0; attempt < 50 && answer !== 'Shipping is free.'; attempt++) {
      answer = await chat.say('shipping');
      if (answer !== 'Shipping is free.') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answer).toBe('Shipping is free.');

    expect(await stop(server)).toBe(0);
    expect(server.stderr()).toContain('SIGTERM: shutting down');
    expect(server.stderr()).toMatch(/Stopped: \d+ turns? finished/);
  }, 120_000);

  it('serves a TypeScript tree with every store in PostgreSQL; a session outlives a restart', async () => {
    await requireDatabase();
    const { schema, drop } = testSchema('cli_serve');
    const dir = mkdtempSync(join(scratch, 'ts-'));
    const treeFile = join(dir, 'tree.ts');
    writeFileSync(
      treeFile,
      `import { defineTree } from '@treeagent/core';
export default defineTree({ name: 'served', nodes: [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  { id: 3, type: 'emit', parent: 2, chunks: ['ciao'], emit: () => ({ message: { type: 'static', content: 'ciao from code' } }) },
] });
`,
    );
    const args = [treeFile, '--data', join(dir, 'data'), '--schema', schema];
    const env = { TREEAGENT_DATABASE_URL: TEST_DATABASE_URL };
    try {
      const first = await startServe(args, env);
      expect(first.stdout()).toContain('tree module');
      expect(first.stdout()).toContain(`in PostgreSQL at`);
      expect(first.stdout()).toContain(`(schema ${schema})`);
      const chat = await openChat(first.url);
      expect(await chat.say('ciao')).toBe('ciao from code');
      expect(await stop(first)).toBe(0);

      const second = await startServe(args, env);
      const history = async () => {
        const response = await fetch(`${second.url}/api/v1/sessions/${chat.sessionId}/history`, {
          headers: { 'x-session-token': chat.token },
        });
        expect(response.status).toBe(200);
        return ((await response.json()) as { history: unknown[] }).history.length;
      };
      const before = await history();
      expect(before).toBeGreaterThanOrEqual(2);
      expect(await chat.say('ciao', second.url)).toBe('ciao from code');
      expect(await history()).toBeGreaterThan(before);
      expect(await stop(second)).toBe(0);
    } finally {
      await drop();
    }
  }, 120_000);
});
