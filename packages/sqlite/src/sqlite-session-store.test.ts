import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HistoryEntry } from '@treeagent/core';
import type { SessionRecord } from '@treeagent/core/adapter';
import { emptySessionRecord } from '@treeagent/core/adapter';
import { describeSessionStore } from '@treeagent/core/conformance';
import { rejection } from '@treeagent/core/test';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { cleanupsAfterEach } from '../../core/src/test-support/cleanups-after-each.js';
import { SqliteDatabase } from './sqlite-database.js';
import { SqliteSessionStore, type SqliteSessionStoreOptions } from './sqlite-session-store.js';
import { tempDir } from './test-support/temp-dir.js';

describeSessionStore('SqliteSessionStore', async () => {
  const { dir, remove } = tempDir();
  const store = new SqliteSessionStore(join(dir, 'sessions.db'));
  return {
    store,
    dispose: async () => {
      await store.close();
      remove();
    },
  };
});

const cleanups = cleanupsAfterEach();

/** A database file path in a fresh directory, removed after the test. */
function freshFile(name = 'treeagent.db'): string {
  const { dir, remove } = tempDir();
  cleanups.push(remove);
  return join(dir, name);
}

function open(file: string, options: SqliteSessionStoreOptions = {}): SqliteSessionStore {
  const store = new SqliteSessionStore(file, options);
  cleanups.push(() => store.close());
  return store;
}

function next(previous: SessionRecord, changes: Partial<SessionRecord> = {}): SessionRecord {
  return { ...previous, ...changes, version: previous.version + 1, turn: previous.turn + 1 };
}

function entry(role: HistoryEntry['role'], content: string, turn: number): HistoryEntry {
  return { role, content, turn, at: '2026-01-01T00:00:00.000Z' };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SqliteSessionStore: the file', () => {
  test('creates missing parent directories and survives closing and reopening', async () => {
    const file = join(freshFile(), '..', 'deep', 'er', 'sessions.db');
    const first = new SqliteSessionStore(file);
    const record = next(emptySessionRecord('s', '2026-01-01T00:00:00.000Z'), {
      state: { cart: ['BICI-1'] },
      lastNodeId: 4,
      agentPositions: { '2': 4 },
    });
    await first.commit({ record, history: [entry('user', 'ciao', 1)], expectedVersion: 0 });
    await first.close();

    const second = open(file);
    expect(await second.load('s')).toEqual(record);
    expect(await second.history('s')).toEqual([entry('user', 'ciao', 1)]);
    await second.commit({
      record: next(record),
      history: [entry('user', 'ancora', 2)],
      expectedVersion: 1,
    });
    expect((await second.history('s')).map((item) => item.content)).toEqual(['ciao', 'ancora']);
  });

  test('uses WAL and the chosen synchronous mode', () => {
    const database = new SqliteDatabase(freshFile(), { synchronous: 'FULL' });
    cleanups.push(() => database.close());
    expect(database.connection.pragma('journal_mode', { simple: true })).toBe('wal');
    // 2 = FULL
    expect(database.connection.pragma('synchronous', { simple: true })).toBe(2);
    const normal = new SqliteDatabase(freshFile());
    cleanups.push(() => normal.close());
    expect(normal.connection.pragma('synchronous', { simple: true })).toBe(1);
  });

  test('history is appended, never rewritten, and a limited read walks the index from the end', async () => {
    const file = freshFile();
    const store = open(file);
    let record = emptySessionRecord('s', '2026-01-01T00:00:00.000Z');
    for (let turn = 1; turn <= 3; turn++) {
      const updated = next(record);
      await store.commit({
        record: updated,
        history: [entry('user', `u${turn}`, turn), entry('assistant', `a${turn}`, turn)],
        expectedVersion: record.version,
      });
      record = updated;
    }
    const db = new Database(file);
    cleanups.push(() => void db.close());
    const rows = () => db.prepare('SELECT rowid, seq FROM session_history ORDER BY seq').all();
    const before = rows();
    await store.commit({ record: next(record), history: [entry('user', 'u4', 4)], expectedVersion: 3 });
    expect(rows()).toEqual([...before, { rowid: expect.any(Number), seq: 7 }]);
    const plan = db
      .prepare(
        'EXPLAIN QUERY PLAN SELECT entry FROM session_history WHERE session_id = ? ORDER BY seq DESC LIMIT ?',
      )
      .all('s', 2) as { detail: string }[];
    expect(plan.map((step) => step.detail).join(' ')).toContain('session_history_by_session');
    expect((await store.history('s', { limit: 2 })).map((item) => item.content)).toEqual(['a3', 'u4']);
  });

  test('a file written by a newer schema version is refused with SESSION_STORE', async () => {
    const file = freshFile();
    await open(file).close();
    const db = new Database(file);
    db.prepare("UPDATE schema_version SET version = 99 WHERE component = 'sessions'").run();
    db.close();
    const error = await rejection(Promise.resolve().then(() => new SqliteSessionStore(file)));
    expect(error.code).toBe('SESSION_STORE');
    expect(error.message).toMatch(/schema version 99/);
  });

  test('a file that is not a database fails to open with SESSION_STORE, naming the file', async () => {
    const file = freshFile();
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, 'this is not a database, just some text that is long enough'.repeat(100));
    const error = await rejection(Promise.resolve().then(() => new SqliteSessionStore(file)));
    expect(error.code).toBe('SESSION_STORE');
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/not a SQLite database/);
  });

  test('a locked database (busy timeout exceeded) fails the commit with SESSION_STORE and writes nothing', async () => {
    const file = freshFile();
    const store = open(file, { busyTimeoutMs: 50 });
    const other = new Database(file);
    cleanups.push(() => void other.close());
    other.exec('BEGIN IMMEDIATE');
    const record = next(emptySessionRecord('s', '2026-01-01T00:00:00.000Z'));
    const error = await rejection(
      store.commit({ record, history: [entry('user', 'x', 1)], expectedVersion: 0 }),
    );
    expect(error.code).toBe('SESSION_STORE');
    expect(error.message).toMatch(/could not commit session "s".*locked by another connection.*SQLITE_BUSY/);
    expect(error.details.sqliteCode).toBe('SQLITE_BUSY');
    other.exec('ROLLBACK');
    expect(await store.load('s')).toBeNull();
  });

  test('a full disk fails the commit with SESSION_STORE and leaves the session as it was', async () => {
    const database = new SqliteDatabase(freshFile());
    const store = new SqliteSessionStore(database);
    cleanups.push(() => store.close());
    const first = next(emptySessionRecord('s', '2026-01-01T00:00:00.000Z'));
    await store.commit({ record: first, history: [entry('user', 'x', 1)], expectedVersion: 0 });
    const pages = database.connection.pragma('page_count', { simple: true }) as number;
    database.connection.pragma(`max_page_count = ${pages + 2}`);
    const error = await rejection(
      store.commit({
        record: next(first, { state: { big: 'x'.repeat(100_000) } }),
        history: [entry('user', 'y'.repeat(100_000), 2)],
        expectedVersion: 1,
      }),
    );
    expect(error.code).toBe('SESSION_STORE');
    expect(error.message).toMatch(/disk is full.*SQLITE_FULL/);
    expect(await store.load('s')).toEqual(first);
    expect(await store.history('s')).toEqual([entry('user', 'x', 1)]);
  });

  test('a closed store refuses calls with SESSION_STORE', async () => {
    const store = new SqliteSessionStore(freshFile());
    await store.close();
    await store.close();
    expect((await rejection(store.load('s'))).message).toMatch(/closed/);
    expect((await rejection(store.lock('s'))).code).toBe('SESSION_STORE');
  });
});

describe('SqliteSessionStore: locks across connections', () => {
  test('two stores on the same file (two connections) take turns on a session', async () => {
    const file = freshFile();
    const a = open(file);
    const b = open(file);
    const order: string[] = [];
    const releaseA = await a.lock('s');
    const waiting = b.lock('s').then((release) => {
      order.push('b acquired');
      return release;
    });
    // Other sessions are not blocked.
    await (await b.lock('other'))();
    await sleep(150);
    order.push('a releasing');
    await releaseA();
    const releaseB = await waiting;
    expect(order).toEqual(['a releasing', 'b acquired']);
    // And back: a waits for b.
    const again = a.lock('s');
    await sleep(50);
    await releaseB();
    await (await again)();
  });

  test('many concurrent read-modify-write interactions from two connections lose no update', async () => {
    const file = freshFile();
    const stores = [open(file), open(file)];
    const interact = async (store: SqliteSessionStore, n: number) => {
      const release = await store.lock('counter');
      try {
        const record = (await store.load('counter')) ?? emptySessionRecord('counter', 'now');
        await sleep(1 + (n % 3));
        const count = ((record.state.count as number | undefined) ?? 0) + 1;
        await store.commit({
          record: next(record, { state: { count } }),
          history: [entry('user', `m${n}`, record.turn + 1)],
          expectedVersion: record.version,
        });
      } finally {
        await release();
      }
    };
    await Promise.all(Array.from({ length: 20 }, (_, n) => interact(stores[n % 2]!, n)));
    expect((await stores[0]!.load('counter'))!.state.count).toBe(20);
    expect(await stores[1]!.history('counter')).toHaveLength(20);
  });

  test('a live holder renews its lease, so a short lease does not let a waiter in', async () => {
    const file = freshFile();
    const a = open(file, { lock: { leaseMs: 90 } });
    const b = open(file, { lock: { leaseMs: 90 } });
    const release = await a.lock('s');
    let acquired = false;
    const waiting = b.lock('s').then((releaseB) => {
      acquired = true;
      return releaseB;
    });
    await sleep(400);
    expect(acquired).toBe(false);
    await release();
    await (await waiting)();
  });

  test('the lease of a holder that died expires and the session can be locked again', async () => {
    const file = freshFile();
    const store = open(file, { lock: { timeoutMs: 5000 } });
    await store.load('s');
    // A holder that crashed: its row stays, nobody renews it.
    const db = new Database(file);
    db.prepare('INSERT INTO session_locks (session_id, owner, expires_at) VALUES (?, ?, ?)').run(
      's',
      'dead-process',
      Date.now() + 300,
    );
    db.close();
    const started = Date.now();
    const release = await store.lock('s');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    await release();
  });

  test('waiting stops with SESSION_STORE after the lock timeout, naming the holder', async () => {
    const file = freshFile();
    const a = open(file);
    const b = open(file, { lock: { timeoutMs: 100 } });
    const release = await a.lock('s');
    const error = await rejection(b.lock('s'));
    expect(error.code).toBe('SESSION_STORE');
    expect(error.message).toMatch(/could not lock session "s".*more than 100 ms/);
    await release();
    await (await b.lock('s'))();
  });

  test('waiting honours an AbortSignal', async () => {
    const file = freshFile();
    const a = open(file);
    const b = open(file);
    const release = await a.lock('s');
    const controller = new AbortController();
    const waiting = rejection(b.lock('s', controller.signal));
    await sleep(30);
    controller.abort(new Error('user went away'));
    const error = await waiting;
    expect(error.code).toBe('ABORTED');
    await release();
    expect((await rejection(b.lock('s', AbortSignal.abort()))).code).toBe('ABORTED');
  });

  test('the commit that ends an interaction frees the lock row in its own transaction', async () => {
    const file = freshFile();
    const a = open(file);
    const b = open(file, { lock: { timeoutMs: 2000 } });
    const lockRows = () => {
      const db = new Database(file);
      try {
        return db.prepare("SELECT owner FROM session_locks WHERE session_id = 's'").all();
      } finally {
        db.close();
      }
    };
    const release = await a.lock('s');
    expect(lockRows()).toHaveLength(1);
    const record = emptySessionRecord('s', 'now');
    // A commit that fails (stale version) leaves the lock held.
    await rejection(
      a.commit({ record: next(next(record)), history: [], expectedVersion: 1, endsInteraction: true }),
    );
    expect(lockRows()).toHaveLength(1);
    // A commit that does not end the interaction keeps it too.
    const first = next(record);
    await a.commit({ record: first, history: [entry('user', 'x', 1)], expectedVersion: 0 });
    expect(lockRows()).toHaveLength(1);
    await a.commit({
      record: next(first),
      history: [entry('user', 'y', 2)],
      expectedVersion: 1,
      endsInteraction: true,
    });
    expect(lockRows()).toHaveLength(0);
    // Another connection can take the session at once; releasing afterwards does not free its lock.
    const releaseB = await b.lock('s');
    await release();
    expect(lockRows()).toHaveLength(1);
    let third = false;
    const waiting = a.lock('s').then((r) => {
      third = true;
      return r;
    });
    await sleep(60);
    expect(third).toBe(false);
    await releaseB();
    await (await waiting)();
  });

  test('closing a store releases the locks it holds', async () => {
    const file = freshFile();
    const a = new SqliteSessionStore(file);
    const b = open(file, { lock: { timeoutMs: 2000 } });
    await a.lock('s');
    const waiting = b.lock('s');
    await sleep(20);
    const closedAt = performance.now();
    await a.close();
    const release = await waiting;
    // Freed by the close, not by the 2 s lock timeout.
    expect(performance.now() - closedAt).toBeLessThan(1000);
    await release();
  });
});
