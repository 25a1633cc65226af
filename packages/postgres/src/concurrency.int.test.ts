import { TreeAgentError } from '@treeagent/core';
import type { SessionStore } from '@treeagent/core/adapter';
import { beforeEach, describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../core/src/test-support/cleanups-after-each.js';
import { PostgresSessionStore } from './index.js';
import { type TurnSpan, testAgent } from './test-support/agent.js';
import { requireDatabase, TEST_DATABASE_URL, testSchema } from './test-support/database.js';

/**
 * Two PostgresSessionStore instances (two pools: two "server processes") run interactions on the
 * same sessions at the same time through TreeAgent.
 */

const cleanups = cleanupsAfterEach();
beforeEach(requireDatabase);

function twoProcesses(label: string): [PostgresSessionStore, PostgresSessionStore] {
  const { schema, drop } = testSchema(label);
  const stores = [1, 2].map(() => new PostgresSessionStore({ connection: TEST_DATABASE_URL, schema })) as [
    PostgresSessionStore,
    PostgresSessionStore,
  ];
  cleanups.push(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await drop();
  });
  return stores;
}

const SESSIONS = ['s1', 's2', 's3'];
const PER_AGENT = 8;

describe('two server processes sharing sessions', () => {
  it('lose nothing and never interleave the interactions of one session', async () => {
    const [storeA, storeB] = twoProcesses('concurrency');
    const spans: TurnSpan[] = [];
    const agents = [
      testAgent({ name: 'A', sessionStore: storeA, spans, delayMs: 5 }),
      testAgent({ name: 'B', sessionStore: storeB, spans, delayMs: 5 }),
    ];
    const sends = agents.flatMap((agent) =>
      SESSIONS.flatMap((sessionId) =>
        Array.from({ length: PER_AGENT }, (_, i) => agent.send(sessionId, i % 2 === 0 ? 'alpha' : 'beta')),
      ),
    );
    const outputs = await Promise.all(sends);
    expect(outputs).toHaveLength(2 * SESSIONS.length * PER_AGENT);

    const total = 2 * PER_AGENT;
    for (const sessionId of SESSIONS) {
      const record = (await storeA.load(sessionId))!;
      expect(record).toMatchObject({ turn: total, version: total, state: { count: total } });
      const history = await storeB.history(sessionId);
      expect(history).toHaveLength(2 * total);
      history.forEach((entry, i) => {
        expect(entry.turn).toBe(Math.floor(i / 2) + 1);
        expect(entry.role).toBe(i % 2 === 0 ? 'user' : 'assistant');
      });

      const mine = spans.filter((span) => span.sessionId === sessionId).sort((a, b) => a.start - b.start);
      expect(mine.map((span) => span.turn)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      for (let i = 1; i < mine.length; i++) expect(mine[i]!.start).toBeGreaterThanOrEqual(mine[i - 1]!.end);
      expect(new Set(mine.map((span) => span.agent))).toEqual(new Set(['A', 'B']));
    }
  });

  it('without the lock the version check still loses nothing: the loser gets SESSION_CONFLICT', async () => {
    const [storeA, storeB] = twoProcesses('nolock');
    const withoutLock = (store: PostgresSessionStore): SessionStore => ({
      load: (id) => store.load(id),
      history: (id, query) => store.history(id, query),
      commit: (commit) => store.commit(commit),
      delete: (id) => store.delete(id),
    });
    const agents = [
      testAgent({ name: 'A', sessionStore: withoutLock(storeA), delayMs: 5 }),
      testAgent({ name: 'B', sessionStore: withoutLock(storeB), delayMs: 5 }),
    ];
    const results = await Promise.allSettled(
      agents.flatMap((agent) => Array.from({ length: PER_AGENT }, () => agent.send('s', 'alpha'))),
    );
    const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    const succeeded = results.length - failures.length;
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((error) => TreeAgentError.hasCode(error, 'SESSION_CONFLICT'))).toBe(true);
    const record = (await storeA.load('s'))!;
    expect(record).toMatchObject({ turn: succeeded, version: succeeded, state: { count: succeeded } });
    expect(await storeA.history('s')).toHaveLength(2 * succeeded);
  });
});
