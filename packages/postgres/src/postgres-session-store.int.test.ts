import { type HistoryEntry, TreeAgentError } from '@treeagent/core';
import { emptySessionRecord, type SessionRecord } from '@treeagent/core/adapter';
import { describeSessionStore } from '@treeagent/core/conformance';
import { beforeEach, describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../core/src/test-support/cleanups-after-each.js';
import { PostgresSessionStore, type PostgresSessionStoreOptions } from './index.js';
import {
  requireDatabase,
  storeInTestSchema,
  TEST_DATABASE_URL,
  testSchema,
  withClient,
} from './test-support/database.js';

describeSessionStore('PostgresSessionStore', async () => {
  await requireDatabase();
  return storeInTestSchema(
    'conformance',
    (schema) => new PostgresSessionStore({ connection: TEST_DATABASE_URL, schema }),
  );
});

const cleanups = cleanupsAfterEach();

function newStore(label: string, options: Partial<PostgresSessionStoreOptions> = {}) {
  const { store, schema, dispose } = storeInTestSchema(
    label,
    (schema) => new PostgresSessionStore({ connection: TEST_DATABASE_URL, schema, ...options }),
  );
  cleanups.push(dispose);
  return { store, schema };
}

const at = '2026-01-01T00:00:00.000Z';
const entry = (content: string, turn: number): HistoryEntry => ({ role: 'user', content, turn, at });
const next = (record: SessionRecord, changes: Partial<SessionRecord> = {}): SessionRecord => ({
  ...record,
  ...changes,
  version: record.version + 1,
  turn: record.turn + 1,
});

describe('PostgresSessionStore', () => {
  beforeEach(requireDatabase);

  it('keeps values exactly: key order, NUL characters, unicode, lone surrogates', async () => {
    const { store } = newStore('fidelity');
    const state = {
      zeta: 1,
      alpha: 'a\u0000b',
      emoji: '🚲 è',
      lone: '\ud800x',
      nested: { b: 1, a: [1.5, null] },
    };
    const record = next(emptySessionRecord('s', at), { state });
    await store.commit({ record, history: [entry('\u0000 ciao \udc00', 1)], expectedVersion: 0 });
    const loaded = (await store.load('s'))!;
    expect(loaded).toEqual(record);
    expect(Object.keys(loaded.state)).toEqual(Object.keys(state));
    expect(Object.keys(loaded.state.nested as object)).toEqual(['b', 'a']);
    expect((await store.history('s'))[0]!.content).toBe('\u0000 ciao \udc00');
  });

  it('appends history rows and never rewrites them', async () => {
    const { store } = newStore('append');
    let record = emptySessionRecord('s', at);
    const rows = () =>
      withClient(async (client) => {
        const { rows } = await client.query<{ seq: number; xmin: string; ctid: string }>(
          `SELECT seq, xmin::text, ctid::text FROM ${store.tables.history} WHERE session_id = 's' ORDER BY seq`,
        );
        return rows;
      });
    for (let turn = 1; turn <= 3; turn++) {
      const updated = next(record);
      await store.commit({
        record: updated,
        history: [entry(`u${turn}`, turn), entry(`a${turn}`, turn)],
        expectedVersion: record.version,
      });
      record = updated;
    }
    const before = await rows();
    expect(before.map((row) => row.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    const updated = next(record);
    await store.commit({ record: updated, history: [entry('u4', 4)], expectedVersion: record.version });
    const after = await rows();
    expect(after.slice(0, 6)).toEqual(before);
    expect(after.map((row) => row.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect((await store.history('s', { limit: 2 })).map((e) => e.content)).toEqual(['a3', 'u4']);
  });

  it('creates its tables once, even when several stores migrate at the same time', async () => {
    const { schema, drop } = testSchema('migrate');
    const stores = [1, 2, 3].map(() => new PostgresSessionStore({ connection: TEST_DATABASE_URL, schema }));
    cleanups.push(async () => {
      await Promise.all(stores.map((store) => store.close()));
      await drop();
    });
    await Promise.all(stores.map((store) => store.migrate()));
    await Promise.all(stores.map((store) => store.migrate()));
    await stores[0]!.commit({ record: next(emptySessionRecord('x', at)), history: [], expectedVersion: 0 });
    expect((await stores[2]!.load('x'))!.version).toBe(1);
  });

  it('a conflicting commit writes nothing, not even history', async () => {
    const { store } = newStore('conflict');
    const first = next(emptySessionRecord('s', at));
    await store.commit({ record: first, history: [entry('one', 1)], expectedVersion: 0 });
    const error = await store
      .commit({ record: next(first), history: [entry('two', 2)], expectedVersion: 5 })
      .catch((e: unknown) => e);
    expect(TreeAgentError.hasCode(error, 'SESSION_CONFLICT')).toBe(true);
    expect((error as Error).message).toContain('version 1, expected 5');
    expect(await store.history('s')).toEqual([entry('one', 1)]);
  });

  it('a lock wait ends with ABORTED when the signal aborts, and the lock still works afterwards', async () => {
    const { store } = newStore('abort');
    const release = await store.lock('s');
    const controller = new AbortController();
    const waiting = store.lock('s', controller.signal).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    controller.abort(new Error('user went away'));
    const error = await waiting;
    expect(TreeAgentError.hasCode(error, 'ABORTED')).toBe(true);
    // Ended by the abort, not by the lock timeout (120 s by default); the bound leaves room for a
    // loaded machine (a 1 s bound failed under load at 2.06 s).
    expect(Date.now() - started).toBeLessThan(30_000);
    await release();
    await release(); // idempotent
    const again = await store.lock('s', AbortSignal.timeout(5_000));
    await again();
  });

  it('gives up on a busy session after lockTimeoutMs with SESSION_STORE', async () => {
    const { store, schema } = newStore('busy');
    const impatient = new PostgresSessionStore({ connection: TEST_DATABASE_URL, schema, lockTimeoutMs: 300 });
    cleanups.push(() => impatient.close());
    const release = await store.lock('s');
    const started = Date.now();
    const error = await impatient.lock('s').catch((e: unknown) => e);
    expect(TreeAgentError.hasCode(error, 'SESSION_STORE')).toBe(true);
    expect((error as Error).message).toContain('is busy');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(30_000); // the 300 ms timeout, not the 120 s default
    await release();
    await (await impatient.lock('s'))();
  });

  it('an already aborted signal does not wait at all', async () => {
    const { store } = newStore('aborted');
    const error = await store.lock('s', AbortSignal.abort()).catch((e: unknown) => e);
    expect(TreeAgentError.hasCode(error, 'ABORTED')).toBe(true);
  });

  it('locks exclude each other across stores (processes) and free when the holder closes', async () => {
    const { store, schema } = newStore('lock-two');
    const other = new PostgresSessionStore({ connection: TEST_DATABASE_URL, schema });
    cleanups.push(() => other.close());
    const release = await store.lock('s');
    let acquired = false;
    const second = other.lock('s').then((r) => {
      acquired = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(acquired).toBe(false);
    await release();
    await (await second)();
    expect(acquired).toBe(true);
  });
});
