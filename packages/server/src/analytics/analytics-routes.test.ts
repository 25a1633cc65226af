import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryAuditLog } from '@treeagent/core/adapter';
import { SqliteSessionStore } from '@treeagent/sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../../core/src/test-support/cleanups-after-each.js';
import type { CreateAppOptions } from '../app-options.js';
import { type OperatorAccount, operatorDirectory } from '../operators/operator-accounts.js';
import { createSession, postMessage, testAgent, testApp } from '../test-support/fixtures.js';
import { loginOperator, testOperatorAccounts } from '../test-support/operators.js';

let accounts: OperatorAccount[];
let ADMIN: Record<string, string>;
beforeAll(async () => {
  accounts = await testOperatorAccounts();
});
const cleanups = cleanupsAfterEach();

function setup(options: Partial<CreateAppOptions> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'treeagent-analytics-'));
  const sessionStore = new SqliteSessionStore(join(dir, 'sessions.db'));
  cleanups.push(async () => {
    await sessionStore.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const agent = testAgent({ sessionStore });
  const auditLog = new InMemoryAuditLog();
  const { app, logger } = testApp({
    agent,
    operators: { directory: operatorDirectory(accounts), auditLog },
    ...options,
  });
  return { app, agent, dir, sessionStore, logger, auditLog };
}

/** Logs in `who` and returns the header programs send (the cookie works the same). */
async function as(
  app: ReturnType<typeof setup>['app'],
  who: 'anna' | 'bruno',
  headers: Record<string, string> = {},
) {
  return { 'X-Operator-Token': await loginOperator(app, who, headers) };
}

async function converse(
  app: ReturnType<typeof setup>['app'],
  messages: string[],
  headers: Record<string, string> = {},
) {
  const session = await createSession(app, headers);
  for (const text of messages) await postMessage(app, session, { message: text }, { headers });
  return session;
}

describe('analytics access', () => {
  it('needs an operator login: none, a session token or an API key are 401; personal data needs the admin role', async () => {
    const { app } = setup({ apiKeys: ['api-key'] });
    const api = { Authorization: 'Bearer api-key' };
    const session = await converse(app, ['hello'], api);
    const report = (headers: Record<string, string>) => app.request('/api/v1/analytics/report', { headers });
    expect((await report(api)).status).toBe(401);
    expect((await report({ ...api, 'X-Session-Token': session.token })).status).toBe(401);
    expect((await report({ ...api, 'X-Operator-Token': session.token })).status).toBe(401);
    const bruno = await as(app, 'bruno', api);
    expect((await report({ ...api, ...bruno })).status).toBe(200);
    // API keys still guard /api as a whole: an operator login without the key is refused.
    expect((await report(bruno)).status).toBe(401);
    const exportAs = (headers: Record<string, string>) =>
      app.request('/api/v1/personal-data/export', {
        method: 'POST',
        headers: { ...api, ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ sessionIds: [session.sessionId] }),
      });
    expect((await exportAs(bruno)).status).toBe(403);
    expect((await exportAs(await as(app, 'anna', api))).status).toBe(200);
  });

  it('a session token never reaches analytics, review, labels or personal data', async () => {
    const { app } = setup({ authFailureLimit: false });
    const session = await converse(app, ['hello']);
    for (const [method, path] of [
      ['GET', '/api/v1/analytics/report'],
      ['GET', '/api/v1/analytics/compare?a=x&b=y'],
      ['GET', '/api/v1/analytics/unmatched'],
      ['POST', '/api/v1/analytics/unmatched/actions'],
      ['GET', '/api/v1/analytics/conversations'],
      ['GET', `/api/v1/analytics/conversations/${session.sessionId}`],
      ['PUT', `/api/v1/analytics/conversations/${session.sessionId}/turns/1/label`],
      ['GET', '/api/v1/analytics/labels'],
      ['POST', '/api/v1/personal-data/export'],
      ['POST', '/api/v1/personal-data/delete'],
    ] as const) {
      for (const headers of <Record<string, string>[]>[
        { 'X-Session-Token': session.token },
        { 'X-Operator-Token': session.token },
        { Authorization: `Bearer ${session.token}` },
        { Cookie: `treeagent_operator=${session.token}` },
      ]) {
        const response = await app.request(path, { method, headers });
        expect(response.status, `${method} ${path} with ${Object.keys(headers)[0]}`).toBe(401);
      }
    }
  });

  it('without operators configured, analytics is closed and says how to open it', async () => {
    const { app } = setup({ operators: undefined });
    const response = await app.request('/api/v1/analytics/report');
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/--operators/);
  });

  it('labels, cluster actions and personal data requests are audited (ids and counts, never texts)', async () => {
    const { app, auditLog } = setup();
    const session = await converse(app, ['hello']);
    const anna = await as(app, 'anna');
    await app.request(`/api/v1/analytics/conversations/${session.sessionId}/turns/1/label`, {
      method: 'PUT',
      headers: { ...anna, 'Content-Type': 'application/json' },
      body: JSON.stringify({ label: 'greet' }),
    });
    await app.request('/api/v1/personal-data/delete', {
      method: 'POST',
      headers: { ...anna, 'Content-Type': 'application/json' },
      body: JSON.stringify({ sessionIds: [session.sessionId] }),
    });
    const entries = await auditLog.list({});
    expect(entries.map((entry) => [entry.actorId, entry.action, entry.sessionId])).toEqual(
      expect.arrayContaining([
        ['anna', 'analytics.label', session.sessionId],
        ['anna', 'personal-data.delete', session.sessionId],
      ]),
    );
    expect(JSON.stringify(entries)).not.toContain('hello');
  });
  it('relabelling checks the session id and the turn first: a malformed id, an unknown session or turn is 404 and audits nothing', async () => {
    const { app, auditLog } = setup();
    const session = await converse(app, ['hello']);
    const anna = await as(app, 'anna');
    const label = (sessionId: string, turn = 1) =>
      app.request(`/api/v1/analytics/conversations/${sessionId}/turns/${turn}/label`, {
        method: 'PUT',
        headers: { ...anna, 'Content-Type': 'application/json' },
        body: JSON.stringify({ label: 'greet' }),
      });
    for (const sessionId of [
      'x'.repeat(301),
      'two%20words',
      '%3Cscript%3E',
      'a%2F..%2Fb',
      encodeURIComponent('é'),
      'f00dfeed-0000-4000-8000-000000000000',
    ]) {
      const response = await label(sessionId);
      expect(response.status, sessionId).toBe(404);
      expect(((await response.json()) as any).error.message).toMatch(/no conversation|has no turn/);
    }
    expect((await label(session.sessionId, 9)).status).toBe(404);
    expect(await auditLog.list({ action: 'analytics.label' })).toEqual([]);
    expect((await label(session.sessionId, 1)).status).toBe(200);
    expect(
      (await auditLog.list({ action: 'analytics.label' })).map((entry) => [entry.sessionId, entry.detail]),
    ).toEqual([[session.sessionId, { turn: 1, label: 'greet' }]]);
  });
});

describe('analytics endpoints', () => {
  it('the report counts the turns the API served, filtered by version', async () => {
    const { app, agent } = setup();
    ADMIN = await as(app, 'bruno');
    await converse(app, ['hello', 'story']);
    await converse(app, ['what is the weather?']);
    const report = (await (await app.request('/api/v1/analytics/report', { headers: ADMIN })).json()) as {
      totals: { turns: number; conversations: number; noMatch: number; contained: number };
      versions: { treeVersion: string }[];
    };
    expect(report.totals).toMatchObject({ turns: 3, conversations: 2, noMatch: 1, contained: 1 });
    expect(report.versions.map((version) => version.treeVersion)).toEqual([agent.tree.contentHash]);
    const other = (await (
      await app.request('/api/v1/analytics/report?version=nope', { headers: ADMIN })
    ).json()) as { totals: { turns: number } };
    expect(other.totals.turns).toBe(0);
    const bad = await app.request('/api/v1/analytics/report?from=ieri', { headers: ADMIN });
    expect(bad.status).toBe(400);
    // Not a day of the calendar: refused with what a day is, not read as March 2nd.
    const impossible = await app.request('/api/v1/analytics/report?to=2023-02-29', { headers: ADMIN });
    expect(impossible.status).toBe(400);
    expect(JSON.stringify(await impossible.json())).toContain('2024-02-29, not 2024-02-31');
  });

  it('review: list, transcript with facts, label with a node name (unknown names refused), labels as TSV', async () => {
    const { app } = setup();
    ADMIN = await as(app, 'bruno');
    const session = await converse(app, ['hello', 'where is my bike?']);
    const list = (await (
      await app.request('/api/v1/analytics/conversations?text=BIKE', { headers: ADMIN })
    ).json()) as { conversations: { sessionId: string; turns: number }[] };
    expect(list.conversations).toEqual([expect.objectContaining({ sessionId: session.sessionId, turns: 2 })]);
    const transcript = (await (
      await app.request(`/api/v1/analytics/conversations/${session.sessionId}`, { headers: ADMIN })
    ).json()) as { history: { content: string }[]; facts: { status: string; nodeId: number | null }[] };
    expect(transcript.history.map((entry) => entry.content)).toContain('where is my bike?');
    expect(transcript.facts.map((fact) => fact.status)).toEqual(['answered', 'no-match']);
    const label = (body: unknown) =>
      app.request(`/api/v1/analytics/conversations/${session.sessionId}/turns/2/label`, {
        method: 'PUT',
        headers: { ...ADMIN, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await label({ label: 'nonexistent' })).status).toBe(400);
    expect((await label({ label: 'greet' })).status).toBe(200);
    const tsv = await (await app.request('/api/v1/analytics/labels?format=tsv', { headers: ADMIN })).text();
    expect(tsv).toBe('where is my bike?\tgreet\n');
    expect((await app.request('/api/v1/analytics/conversations/nobody', { headers: ADMIN })).status).toBe(
      404,
    );
  });

  it('unmatched clusters, then "add as chunks" to a JSON tree file and "add to utterances", with the effect', async () => {
    const { dir } = setup();
    const treeFile = join(dir, 'tree.json');
    writeFileSync(
      treeFile,
      JSON.stringify({
        nodes: [
          { id: 1, type: 'root' },
          { id: 3, type: 'emit', chunks: ['hello'] },
        ],
      }),
    );
    const utterancesFile = join(dir, 'utterances.tsv');
    writeFileSync(utterancesFile, 'hello\tgreet');
    const { app: withFiles } = testApp({
      agent: setupAgent(dir),
      operators: { directory: operatorDirectory(accounts) },
      analytics: { treeFile, utterancesFile },
    });
    ADMIN = await as(withFiles as never, 'anna');
    await converse(withFiles, ['parking?', 'parking?', 'weather']);
    const clusters = (await (
      await withFiles.request('/api/v1/analytics/unmatched', { headers: ADMIN })
    ).json()) as {
      clusters: { size: number; messages: { message: string; count: number }[] }[];
      actions: { addChunks: string; addUtterances: boolean };
    };
    expect(clusters.actions).toEqual({ addChunks: 'json-tree', addUtterances: true });
    expect(clusters.clusters[0]).toMatchObject({ size: 2, messages: [{ message: 'parking?', count: 2 }] });
    const post = (body: unknown) =>
      withFiles.request('/api/v1/analytics/unmatched/actions', {
        method: 'POST',
        headers: { ...ADMIN, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const added = (await (
      await post({ action: 'add-chunks', nodeId: 3, messages: ['parking?'] })
    ).json()) as {
      added: number;
      file: string;
      effect: { total: number };
    };
    // The file by its name: the server's absolute path (a temporary directory here) is not shown.
    expect(added).toMatchObject({ added: 1, file: 'tree.json', effect: { total: 1 } });
    expect(JSON.parse(readFileSync(treeFile, 'utf8')).nodes[1].chunks).toEqual(['hello', 'parking?']);
    expect((await post({ action: 'add-chunks', nodeId: 3, messages: ['parking?'] })).status).toBe(200);
    expect(JSON.parse(readFileSync(treeFile, 'utf8')).nodes[1].chunks).toEqual(['hello', 'parking?']);
    const utterances = await post({ action: 'add-utterances', label: 'none', messages: ['weather'] });
    expect(utterances.status).toBe(200);
    expect(((await utterances.json()) as { file: string }).file).toBe('utterances.tsv');
    expect(readFileSync(utterancesFile, 'utf8')).toBe('hello\tgreet\nweather\tnone\n');
    expect((await post({ action: 'add-utterances', label: 'nope', messages: ['weather'] })).status).toBe(400);
  });

  it('"add as chunks" rewrites the served tree: admins only, audited with the node and the count, the file keeps its mode', async () => {
    const { dir } = setup();
    const treeFile = join(dir, 'tree.json');
    const text = `${JSON.stringify({
      nodes: [
        { id: 1, type: 'root' },
        { id: 3, type: 'emit', chunks: ['hello'] },
      ],
    })}\n`;
    writeFileSync(treeFile, text, { mode: 0o600 });
    // A TypeScript tree: its chunks file takes the tree file's mode when it is created, and keeps its own after.
    const codeTree = join(dir, 'code-tree.ts');
    writeFileSync(codeTree, 'export default {};\n', { mode: 0o640 });
    const auditLog = new InMemoryAuditLog();
    const changes: string[] = [];
    const appFor = (file: string) =>
      testApp({
        agent: setupAgent(dir),
        operators: { directory: operatorDirectory(accounts), auditLog },
        analytics: { treeFile: file, onTreeChange: () => changes.push(file) },
      }).app;
    const app = appFor(treeFile);
    await converse(app, ['parking?']);
    const bruno = await as(app, 'bruno');
    const anna = await as(app, 'anna');
    const post = (headers: Record<string, string>, target = app) =>
      target.request('/api/v1/analytics/unmatched/actions', {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ action: 'add-chunks', nodeId: 3, messages: ['parking?', 'hello'] }),
      });
    const actions = async (headers: Record<string, string>) =>
      ((await (await app.request('/api/v1/analytics/unmatched', { headers })).json()) as any).actions;

    // An operator is not offered the action and is refused it: the file is untouched, nothing audited.
    expect(await actions(bruno)).toEqual({ addChunks: null, addUtterances: false });
    const refused = await post(bruno);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as any).error.message).toMatch(/admin/);
    expect(readFileSync(treeFile, 'utf8')).toBe(text);
    expect(await auditLog.list({ action: 'analytics.add-chunks' })).toEqual([]);

    expect(await actions(anna)).toEqual({ addChunks: 'json-tree', addUtterances: false });
    expect((await post(anna)).status).toBe(200);
    expect(JSON.parse(readFileSync(treeFile, 'utf8')).nodes[1].chunks).toEqual(['hello', 'parking?']);
    expect(statSync(treeFile).mode & 0o777).toBe(0o600);
    expect(changes).toEqual([treeFile]);
    const [entry] = await auditLog.list({ action: 'analytics.add-chunks' });
    expect(entry).toMatchObject({ actorId: 'anna', detail: { nodeId: 3, messages: 2, added: 1 } });
    expect(JSON.stringify(entry)).not.toContain('parking');

    const codeApp = appFor(codeTree);
    const annaThere = await as(codeApp, 'anna');
    expect((await post(annaThere, codeApp)).status).toBe(200);
    expect(statSync(join(dir, 'code-tree.chunks.json')).mode & 0o777).toBe(0o640);
    chmodSync(join(dir, 'code-tree.chunks.json'), 0o600);
    await codeApp.request('/api/v1/analytics/unmatched/actions', {
      method: 'POST',
      headers: { ...annaThere, 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'add-chunks', nodeId: 3, messages: ['where do I park?'] }),
    });
    expect(JSON.parse(readFileSync(join(dir, 'code-tree.chunks.json'), 'utf8')).chunks['3']).toEqual([
      'parking?',
      'hello',
      'where do I park?',
    ]);
    expect(statSync(join(dir, 'code-tree.chunks.json')).mode & 0o777).toBe(0o600);
    // No temporary file left beside the trees.
    expect(readdirSync(dir).filter((name) => name.includes('.tmp'))).toEqual([]);
  });

  it('personal data by session id: export then delete sessions, facts included', async () => {
    const { app } = setup();
    ADMIN = await as(app, 'anna');
    const session = await converse(app, ['hello']);
    const post = (path: string) =>
      app.request(`/api/v1/personal-data/${path}`, {
        method: 'POST',
        headers: { ...ADMIN, 'Content-Type': 'application/json' },
        body: JSON.stringify({ sessionIds: [session.sessionId, 'unknown-1'] }),
      });
    const response = await post('export');
    expect(response.status, await response.clone().text()).toBe(200);
    const exported = (await response.json()) as {
      sessions: { sessionId: string; found: boolean; history: unknown[]; facts: unknown[] }[];
    };
    expect(exported.sessions.map((s) => [s.sessionId, s.found, s.history.length, s.facts.length])).toEqual([
      [session.sessionId, true, 2, 1],
      ['unknown-1', false, 0, 0],
    ]);
    expect(await (await post('delete')).json()).toEqual({ userId: null, deleted: [session.sessionId] });
    const again = (await (await post('export')).json()) as { sessions: { found: boolean }[] };
    expect(again.sessions.map((s) => s.found)).toEqual([false, false]);
    // The session's token went too: the user's client can no longer use it.
    expect((await postMessage(app, session, { message: 'hello' })).status).toBe(404);
  });
});

function setupAgent(dir: string) {
  const sessionStore = new SqliteSessionStore(join(dir, 'files.db'));
  cleanups.push(() => sessionStore.close());
  return testAgent({ sessionStore });
}
