import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptySessionRecord } from '@treeagent/core/adapter';
import { ANALYTICS_FIXTURE } from '@treeagent/core/conformance';
import { userReference } from '@treeagent/server';
import { openSqlite } from '@treeagent/sqlite';
import { afterEach, describe, expect, test } from 'vitest';
import { main } from '../main.js';
import { capture } from '../test-support/capture.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Two sessions of user crm:1 and one of crm:2, each with a turn and its fact, in a data directory. */
async function dataDirectory(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'treeagent-personal-cli-'));
  dirs.push(dir);
  const data = join(dir, 'data');
  const stores = openSqlite(data);
  const fact = ANALYTICS_FIXTURE[0]!.facts[0]!;
  for (const [sessionId, userId] of [
    ['a1', 'crm:1'],
    ['a2', 'crm:1'],
    ['b1', 'crm:2'],
  ] as const) {
    await stores.sessionTokens.save(sessionId, 'f'.repeat(64), userId);
    const record = { ...emptySessionRecord(sessionId, fact.at), version: 1, turn: 1 };
    await stores.sessionStore.commit({
      record,
      history: [{ role: 'user', content: `hello from ${sessionId}`, turn: 1, at: fact.at }],
      expectedVersion: 0,
      facts: [{ ...fact, sessionId, message: `hello from ${sessionId}` }],
    });
  }
  await stores.close();
  return data;
}

describe('treeagent personal-data', () => {
  test('export writes every session of the user (0600 file), delete needs --yes and removes them all', async () => {
    const data = await dataDirectory();
    const file = join(data, '..', 'crm-1.json');
    const exported = capture();
    expect(
      await main(['personal-data', 'export', '--user', 'crm:1', '--data', data, '--out', file], exported),
    ).toBe(0);
    const json = JSON.parse(readFileSync(file, 'utf8')) as {
      userId: string;
      sessions: { sessionId: string; history: { content: string }[]; facts: { message: string }[] }[];
    };
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(json.userId).toBe('crm:1');
    expect(
      json.sessions.map((session) => [session.sessionId, session.history[0]?.content, session.facts.length]),
    ).toEqual([
      ['a1', 'hello from a1', 1],
      ['a2', 'hello from a2', 1],
    ]);

    const dry = capture();
    expect(await main(['personal-data', 'delete', '--user', 'crm:1', '--data', data], dry)).toBe(1);
    expect(dry.out.join('\n')).toMatch(/Would delete 2 sessions \(a1, a2\).*--yes/);
    const deleted = capture();
    expect(await main(['personal-data', 'delete', '--user', 'crm:1', '--data', data, '--yes'], deleted)).toBe(
      0,
    );
    expect(deleted.out).toEqual(['Deleted 2 sessions: a1, a2.']);

    const stores = openSqlite(data);
    try {
      const analytics = stores.sessionStore.analytics();
      expect(await stores.sessionStore.load('a1')).toBeNull();
      expect(await analytics.turns('a2')).toEqual([]);
      expect(await stores.sessionTokens.userSessions('crm:1')).toEqual([]);
      expect(await stores.sessionStore.load('b1')).not.toBeNull();
      expect(await analytics.turns('b1')).toHaveLength(1);
      const audit = await stores.auditLog.list({ action: 'personal-data.delete' });
      expect(audit.find((entry) => entry.sessionId === null)).toMatchObject({
        actorId: expect.stringMatching(/^cli:/),
        actorRole: 'admin',
        detail: { user: userReference('crm:1'), sessions: 2 },
      });
      expect(JSON.stringify(await stores.auditLog.list({ limit: 1000 }))).not.toContain('crm:1');
    } finally {
      await stores.close();
    }
  });

  test('bad usage says how to name the user', async () => {
    const data = await dataDirectory();
    const none = capture();
    expect(await main(['personal-data', 'export', '--data', data], none)).toBe(2);
    expect(none.err.join('\n')).toMatch(/--user <id>/);
    const bad = capture();
    expect(await main(['personal-data', 'export', '--user', 'a b', '--data', data], bad)).toBe(2);
    expect(bad.err.join('\n')).toMatch(/letters, digits/);
    const action = capture();
    expect(await main(['personal-data', 'purge', '--user', 'x', '--data', data], action)).toBe(2);
  });

  test("--channel-user exports and deletes a messaging channel user's sessions, identities and outbox rows", async () => {
    const data = await dataDirectory();
    const stores = openSqlite(data);
    const conversation = { channel: 'telegram', conversationId: '555', userId: '77' };
    const channels = stores.sessionStore.channelStore();
    const sessionId = await channels.sessionOf(conversation, 'ch-1', new Date());
    await stores.sessionStore.commit({
      record: { ...emptySessionRecord(sessionId, '2026-12-01T10:00:00.000Z'), version: 1, turn: 1 },
      history: [{ role: 'user', content: 'ciao', turn: 1, at: '2026-12-01T10:00:00.000Z' }],
      expectedVersion: 0,
      inbound: { channel: 'telegram', messageId: 'u1' },
      outbound: [
        {
          id: 'telegram:u1:0',
          sessionId,
          conversation,
          payload: { type: 'text', text: 'Ciao!', options: [] },
        },
      ],
    });
    await stores.close();
    const exported = capture();
    expect(
      await main(['personal-data', 'export', '--channel-user', 'telegram:77', '--data', data], exported),
    ).toBe(0);
    const json = JSON.parse(exported.out.join('\n')) as {
      sessions: {
        sessionId: string;
        channelIdentity: { conversation: unknown };
        channelDeliveries: { id: string }[];
      }[];
    };
    expect(json.sessions.map((session) => [session.sessionId, session.channelIdentity.conversation])).toEqual(
      [['ch-1', conversation]],
    );
    expect(json.sessions[0]!.channelDeliveries.map((delivery) => delivery.id)).toEqual(['telegram:u1:0']);
    const deleted = capture();
    expect(
      await main(
        ['personal-data', 'delete', '--channel-user', 'telegram:77', '--data', data, '--yes'],
        deleted,
      ),
    ).toBe(0);
    expect(deleted.out).toEqual(['Deleted 1 sessions: ch-1.']);
    const after = openSqlite(data);
    try {
      expect(await after.sessionStore.channelStore().sessionsOfUser('telegram', '77')).toEqual([]);
      expect(await after.sessionStore.channelStore().sessionData(['ch-1'])).toEqual({
        identities: [],
        deliveries: [],
      });
      expect(await after.sessionStore.load('ch-1')).toBeNull();
    } finally {
      await after.close();
    }
    const bad = capture();
    expect(await main(['personal-data', 'export', '--channel-user', '77', '--data', data], bad)).toBe(2);
    expect(bad.err.join('\n')).toMatch(/--channel-user must be <channel>:<user id>/);
  });
});
