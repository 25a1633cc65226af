import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@treeagent/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { operatorDirectory } from '../../operators/operator-accounts.js';
import { createSession, postMessage, testApp } from '../../test-support/fixtures.js';
import { handoffAgent } from '../../test-support/handoff.js';
import { loginOperator, testOperatorAccounts } from '../../test-support/operators.js';

type App = ReturnType<typeof testApp>['app'];
const json = { 'Content-Type': 'application/json' };
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function rate(app: App, session: { sessionId: string; token: string }, body: unknown) {
  return app.request(`/api/v1/sessions/${session.sessionId}/satisfaction`, {
    method: 'POST',
    headers: { ...json, 'X-Session-Token': session.token },
    body: JSON.stringify(body),
  });
}

async function handBack(app: App, token: string, sessionId: string) {
  const headers = { ...json, 'X-Operator-Token': token };
  const base = `/api/v1/operator/handoffs/${sessionId}`;
  expect((await app.request(`${base}/claim`, { method: 'POST', headers, body: '{}' })).status).toBe(200);
  expect((await app.request(`${base}/hand-back`, { method: 'POST', headers, body: '{}' })).status).toBe(200);
}

describe('satisfaction (CSAT) over HTTP', () => {
  it('a user rates once after the hand back; analytics groups it by operator, team and tree version', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-csat-'));
    const stores = openSqlite(directory);
    cleanups.push(async () => {
      await stores.close();
      rmSync(directory, { recursive: true, force: true });
    });
    const agent = handoffAgent();
    const { app } = testApp({
      agent,
      operators: { directory: operatorDirectory(await testOperatorAccounts()) },
      handoff: { satisfaction: stores.satisfaction },
    });
    const bruno = await loginOperator(app, 'bruno');
    const session = await createSession(app);
    await postMessage(app, session, { message: 'I want a human' });

    // While people have it, it cannot be rated; nor can a session never handed off.
    expect((await rate(app, session, { rating: 4 })).status).toBe(409);
    const other = await createSession(app);
    expect((await rate(app, other, { rating: 4 })).status).toBe(409);

    await handBack(app, bruno, session.sessionId);
    const bad = await rate(app, session, { rating: 6 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('rating is 1 to 5');
    // Another session's token cannot rate this one.
    const foreign = await app.request(`/api/v1/sessions/${session.sessionId}/satisfaction`, {
      method: 'POST',
      headers: { ...json, 'X-Session-Token': other.token },
      body: JSON.stringify({ rating: 1 }),
    });
    expect([401, 403, 404]).toContain(foreign.status);

    expect((await rate(app, session, { rating: 4, comment: 'Quick and kind' })).status).toBe(201);
    expect((await rate(app, session, { rating: 1 })).status).toBe(409);

    const stored = await stores.satisfaction.list();
    expect(stored).toMatchObject([
      {
        sessionId: session.sessionId,
        rating: 4,
        comment: 'Quick and kind',
        operatorId: 'bruno',
        team: 'support',
        treeVersion: agent.tree.contentHash,
      },
    ]);

    expect((await app.request('/api/v1/analytics/satisfaction')).status).toBe(401);
    const report = await app.request('/api/v1/analytics/satisfaction', {
      headers: { 'X-Operator-Token': bruno },
    });
    expect(report.status).toBe(200);
    expect(await report.json()).toMatchObject({
      count: 1,
      average: 4,
      byOperator: [
        { key: 'bruno', name: 'Bruno Bianchi', count: 1, average: 4, distribution: [0, 0, 0, 1, 0] },
      ],
      byTeam: [{ key: 'support', count: 1, average: 4 }],
      byTreeVersion: [{ key: agent.tree.contentHash, count: 1 }],
    });
    // The analytics filter: UTC days, both included, and the tree version.
    const reportFor = async (query: string) =>
      await app.request(`/api/v1/analytics/satisfaction?${query}`, {
        headers: { 'X-Operator-Token': bruno },
      });
    // The rating's own day (UTC), not today's: the test may run across midnight.
    const today = stored[0]!.at.toISOString().slice(0, 10);
    const count = async (query: string) =>
      ((await (await reportFor(query)).json()) as { count: number }).count;
    expect(await count(`from=${today}&to=${today}`)).toBe(1);
    expect(await count('from=2020-01-01&to=2020-01-31')).toBe(0);
    expect(await count(`version=${agent.tree.contentHash}`)).toBe(1);
    expect(await count('version=another')).toBe(0);
    const backwards = await reportFor('from=2020-02-01&to=2020-01-01');
    expect(backwards.status).toBe(400);
    expect(JSON.stringify(await backwards.json())).toContain('ends (2020-01-01) before it starts');
    expect((await reportFor(`since=2020-01-01T00:00:00Z&from=${today}`)).status).toBe(400);
    // A day that is not in the calendar is refused, not rolled over to March.
    const impossible = await reportFor('from=2024-02-31');
    expect(impossible.status).toBe(400);
    expect(JSON.stringify(await impossible.json())).toContain('a day of the calendar written YYYY-MM-DD');
    expect(await count('from=2024-02-29&to=2024-02-29')).toBe(0);

    // Deleting the session forgets its rating.
    const deleted = await app.request(`/api/v1/sessions/${session.sessionId}`, {
      method: 'DELETE',
      headers: { 'X-Session-Token': session.token },
    });
    expect(deleted.status).toBe(204);
    expect(await stores.satisfaction.list()).toEqual([]);
  });

  it('with redaction on, the comment is stored redacted: the raw address is in neither the .db nor the -wal', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-csat-'));
    const stores = openSqlite(directory);
    cleanups.push(async () => {
      await stores.close();
      rmSync(directory, { recursive: true, force: true });
    });
    const agent = handoffAgent({ redaction: {}, sessionStore: stores.sessionStore });
    const { app } = testApp({
      agent,
      operators: { directory: operatorDirectory(await testOperatorAccounts()) },
      handoff: { satisfaction: stores.satisfaction, queue: stores.handoffQueue },
    });
    const bruno = await loginOperator(app, 'bruno');
    const session = await createSession(app);
    await postMessage(app, session, { message: 'I want a human' });
    await handBack(app, bruno, session.sessionId);
    const comment = 'Kind, but write to me at giulia.verdi@example.org or +33 6 12 34 56 78';
    expect((await rate(app, session, { rating: 5, comment })).status).toBe(201);

    expect((await stores.satisfaction.list())[0]!.comment).toBe(
      'Kind, but write to me at [email] or [phone]',
    );
    const bytes = [stores.file, `${stores.file}-wal`]
      .filter((file) => existsSync(file))
      .map((file) => readFileSync(file).toString('latin1'))
      .join('');
    expect(bytes).toContain('Kind, but write to me at [email]');
    expect(bytes).not.toContain('giulia.verdi@example.org');
    expect(bytes).not.toContain('12 34 56 78');
  });
});
