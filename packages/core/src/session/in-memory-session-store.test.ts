import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../protocol/history-entry.js';
import { rejection } from '../test/rejection.js';
import { InMemorySessionStore } from './in-memory-session-store.js';
import { emptySessionRecord, type SessionRecord } from './session-store.js';

const NOW = '2024-01-01T00:00:00.000Z';

function entry(turn: number, role: HistoryEntry['role'], content: string): HistoryEntry {
  return { role, content, turn, at: NOW };
}

function next(record: SessionRecord, changes: Partial<SessionRecord> = {}): SessionRecord {
  return { ...record, version: record.version + 1, turn: record.turn + 1, ...changes };
}

describe('InMemorySessionStore', () => {
  it('knows nothing of a session never committed', async () => {
    const store = new InMemorySessionStore();
    expect(await store.load('s')).toBeNull();
    expect(await store.history('s')).toEqual([]);
    expect(await store.history('s', { limit: 3 })).toEqual([]);
  });

  it('commits a record and appends history, which load and history return', async () => {
    const store = new InMemorySessionStore();
    const empty = emptySessionRecord('s', NOW);
    const first = next(empty, { state: { a: 1 }, lastNodeId: 3 });
    await store.commit({
      record: first,
      history: [entry(1, 'user', 'hi'), entry(1, 'assistant', 'hello')],
      expectedVersion: 0,
    });
    expect(await store.load('s')).toEqual(first);
    const second = next(first, { state: { a: 2 } });
    await store.commit({ record: second, history: [entry(2, 'user', 'again')], expectedVersion: 1 });
    expect(await store.load('s')).toEqual(second);
    expect((await store.history('s')).map((e) => e.content)).toEqual(['hi', 'hello', 'again']);
  });

  it('rejects a commit whose expected version is stale with SESSION_CONFLICT, changing nothing', async () => {
    const store = new InMemorySessionStore();
    const empty = emptySessionRecord('s', NOW);
    const first = next(empty);
    await store.commit({ record: first, history: [entry(1, 'user', 'one')], expectedVersion: 0 });
    // A second interaction that also started from version 0.
    const error = await rejection(
      store.commit({
        record: next(empty, { state: { lost: true } }),
        history: [entry(1, 'user', 'two')],
        expectedVersion: 0,
      }),
    );
    expect(error.code).toBe('SESSION_CONFLICT');
    expect(error.details.sessionId).toBe('s');
    expect(error.message).toContain('version 1');
    expect(await store.load('s')).toEqual(first);
    expect((await store.history('s')).map((e) => e.content)).toEqual(['one']);
    // A commit that expects a version from the future is a conflict too.
    expect(
      (await rejection(store.commit({ record: next(first), history: [], expectedVersion: 5 }))).code,
    ).toBe('SESSION_CONFLICT');
    // The first commit of a session must expect version 0.
    const other = emptySessionRecord('t', NOW);
    expect(
      (await rejection(store.commit({ record: next(other), history: [], expectedVersion: 1 }))).code,
    ).toBe('SESSION_CONFLICT');
  });

  it('history with a limit returns the most recent entries, oldest first', async () => {
    const store = new InMemorySessionStore();
    const history = [1, 2, 3, 4, 5].map((n) => entry(n, n % 2 ? 'user' : 'assistant', `m${n}`));
    await store.commit({ record: next(emptySessionRecord('s', NOW)), history, expectedVersion: 0 });
    expect((await store.history('s', { limit: 2 })).map((e) => e.content)).toEqual(['m4', 'm5']);
    expect((await store.history('s', { limit: 10 })).map((e) => e.content)).toEqual([
      'm1',
      'm2',
      'm3',
      'm4',
      'm5',
    ]);
    expect(await store.history('s', { limit: 0 })).toEqual([]);
    expect(await store.history('s', {})).toHaveLength(5);
  });

  it('returns copies: changing what load, history or commit handled does not change the store', async () => {
    const store = new InMemorySessionStore();
    const record = next(emptySessionRecord('s', NOW), { state: { list: [1] } });
    const history = [entry(1, 'user', 'hi')];
    await store.commit({ record, history, expectedVersion: 0 });
    (record.state.list as number[]).push(2);
    history[0]!.content = 'changed';
    history.push(entry(1, 'assistant', 'extra'));
    const loaded = (await store.load('s'))!;
    (loaded.state.list as number[]).push(3);
    const entries = await store.history('s');
    entries[0]!.content = 'changed again';
    expect((await store.load('s'))!.state).toEqual({ list: [1] });
    expect(await store.history('s')).toEqual([entry(1, 'user', 'hi')]);
  });

  it('keeps sessions apart and deletes one without touching the others', async () => {
    const store = new InMemorySessionStore();
    await store.commit({
      record: next(emptySessionRecord('a', NOW)),
      history: [entry(1, 'user', 'a')],
      expectedVersion: 0,
    });
    await store.commit({
      record: next(emptySessionRecord('b', NOW)),
      history: [entry(1, 'user', 'b')],
      expectedVersion: 0,
    });
    await store.delete('a');
    expect(await store.load('a')).toBeNull();
    expect(await store.history('a')).toEqual([]);
    expect((await store.load('b'))!.id).toBe('b');
    expect((await store.history('b')).map((e) => e.content)).toEqual(['b']);
    // After a delete the session starts again from version 0.
    await store.commit({ record: next(emptySessionRecord('a', NOW)), history: [], expectedVersion: 0 });
    expect((await store.load('a'))!.version).toBe(1);
  });
});

describe('emptySessionRecord', () => {
  it('describes a session never committed', () => {
    expect(emptySessionRecord('s', NOW)).toEqual({
      id: 's',
      version: 0,
      turn: 0,
      state: {},
      lastNodeId: null,
      agentPositions: {},
      pendingMessage: null,
      constraints: null,
      failCounter: 0,
      files: [],
      createdAt: NOW,
      updatedAt: NOW,
    });
  });
});
