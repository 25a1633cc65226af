import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteSessionStore } from '@treeagent/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { CreateAppOptions } from '../app-options.js';
import { createSession, postMessage, testAgent, testApp } from '../test-support/fixtures.js';

const ADMIN = { Authorization: 'Bearer admin-key' };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setup(options: Partial<CreateAppOptions> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'treeagent-analytics-'));
  const sessionStore = new SqliteSessionStore(join(dir, 'sessions.db'));
  cleanups.push(async () => {
    await sessionStore.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const agent = testAgent({ sessionStore });
  const { app, logger } = testApp({ agent, adminKeys: ['admin-key'], ...options });
  return { app, agent, dir, sessionStore, logger };
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
  it('needs an admin key: none is 401, a session token is 401, an API key that is not an admin key is 403', async () => {
    const { app } = setup({ apiKeys: ['api-key'] });
    const api = { Authorization: 'Bearer api-key' };
    const session = await converse(app, ['hello'], api);
    expect((await app.request('/api/v1/analytics/report')).status).toBe(401);
    const withToken = await app.request('/api/v1/analytics/report', {
      headers: { 'X-Session-Token': session.token, ...api },
    });
    expect(withToken.status).toBe(403);
    const tokenOnly = await app.request('/api/v1/analytics/report', {
      headers: { Authorization: `Bearer ${session.token}` },
    });
    expect(tokenOnly.status).toBe(401); // not even an API key
    expect((await app.request('/api/v1/analytics/report', { headers: ADMIN })).status).toBe(200);
    // The admin key is an API key too: the same key works for the chat.
    expect((await app.request('/api/v1/sessions', { method: 'POST', headers: ADMIN })).status).toBe(201);
  });

  it('a session token alone never reaches analytics, review, labels or personal data', async () => {
    const { app } = setup();
    const session = await converse(app, ['hello']);
    const headers = { 'X-Session-Token': session.token };
    for (const [method, path] of [
      ['GET', '/api/v1/analytics/report'],
      ['GET', '/api/v1/analytics/unmatched'],
      ['GET', '/api/v1/analytics/conversations'],
      ['GET', `/api/v1/analytics/conversations/${session.sessionId}`],
      ['PUT', `/api/v1/analytics/conversations/${session.sessionId}/turns/1/label`],
      ['GET', '/api/v1/analytics/labels'],
      ['POST', '/api/v1/personal-data/export'],
      ['POST', '/api/v1/personal-data/delete'],
    ] as const) {
      const response = await app.request(path, { method, headers });
      expect(response.status, `${method} ${path}`).toBe(401);
      const bearer = await app.request(path, {
        method,
        headers: { Authorization: `Bearer ${session.token}` },
      });
      expect(bearer.status, `${method} ${path} with the token as bearer`).toBe(403);
    }
  });

  it('without admin keys configured, analytics is closed and says how to open it', async () => {
    const { app } = setup({ adminKeys: [] });
    const response = await app.request('/api/v1/analytics/report', { headers: ADMIN });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/--admin-key/);
  });
});

describe('analytics endpoints', () => {
  it('the report counts the turns the API served, filtered by version', async () => {
    const { app, agent } = setup();
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
  });

  it('review: list, transcript with facts, label with a node name (unknown names refused), labels as TSV', async () => {
    const { app } = setup();
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
      adminKeys: ['admin-key'],
      analytics: { treeFile, utterancesFile },
    });
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
      effect: { total: number };
    };
    expect(added).toMatchObject({ added: 1, effect: { total: 1 } });
    expect(JSON.parse(readFileSync(treeFile, 'utf8')).nodes[1].chunks).toEqual(['hello', 'parking?']);
    expect((await post({ action: 'add-chunks', nodeId: 3, messages: ['parking?'] })).status).toBe(200);
    expect(JSON.parse(readFileSync(treeFile, 'utf8')).nodes[1].chunks).toEqual(['hello', 'parking?']);
    expect((await post({ action: 'add-utterances', label: 'none', messages: ['weather'] })).status).toBe(200);
    expect(readFileSync(utterancesFile, 'utf8')).toBe('hello\tgreet\nweather\tnone\n');
    expect((await post({ action: 'add-utterances', label: 'nope', messages: ['weather'] })).status).toBe(400);
  });

  it("personal data: export then delete a user's sessions, facts included", async () => {
    const { app } = setup();
    const session = await converse(app, ['hello']);
    const post = (path: string) =>
      app.request(`/api/v1/personal-data/${path}`, {
        method: 'POST',
        headers: { ...ADMIN, 'Content-Type': 'application/json' },
        body: JSON.stringify({ sessionIds: [session.sessionId, 'unknown-1'] }),
      });
    const exported = (await (await post('export')).json()) as {
      sessions: { sessionId: string; found: boolean; history: unknown[]; facts: unknown[] }[];
    };
    expect(exported.sessions.map((s) => [s.sessionId, s.found, s.history.length, s.facts.length])).toEqual([
      [session.sessionId, true, 2, 1],
      ['unknown-1', false, 0, 0],
    ]);
    expect(await (await post('delete')).json()).toEqual({ deleted: [session.sessionId] });
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
