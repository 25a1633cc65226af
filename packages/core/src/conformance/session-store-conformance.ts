import { describe, expect } from 'vitest';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { HistoryEntry } from '../protocol/history-entry.js';
import { emptySessionRecord, type SessionRecord, type SessionStore } from '../session/session-store.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/** Creates a fresh, empty store for one test, and disposes of it afterwards. */
export type SessionStoreFactory = () => Promise<{ store: SessionStore; dispose?: () => Promise<void> }>;

/**
 * The `SessionStore` conformance suite: every implementation runs it (in memory, SQLite,
 * PostgreSQL). Call it inside a test file: `describeSessionStore('SqliteSessionStore', factory)`.
 */
export function describeSessionStore(
  name: string,
  factory: SessionStoreFactory,
  options: ConformanceOptions = {},
): void {
  const cases = conformanceCases(`SessionStore conformance of ${name}`, options);
  const withStore = (body: (store: SessionStore) => Promise<void>) => async () => {
    const { store, dispose } = await factory();
    try {
      await body(store);
    } finally {
      await dispose?.();
    }
  };

  describe(`SessionStore conformance: ${name}`, () => {
    cases.test(
      'an unknown session loads as null with an empty history',
      withStore(async (store) => {
        expect(await store.load('nobody')).toBeNull();
        expect(await store.history('nobody')).toEqual([]);
      }),
    );

    cases.test(
      'a commit is read back exactly, history appended in order',
      withStore(async (store) => {
        const first = nextRecord(emptySessionRecord('s1', '2026-01-01T00:00:00.000Z'), {
          state: { cart: [{ sku: 'BICI-1', qty: 2 }], nome: 'Giulia ✓', n: 1.5, nothing: null },
        });
        await store.commit({
          record: first,
          history: [
            entry('user', 'ciao', 1),
            entry('assistant', 'Ciao!', 1, { nodeId: 3, options: ['a', 'b'] }),
          ],
          expectedVersion: 0,
        });
        expect(await store.load('s1')).toEqual(first);
        const second = nextRecord(first, {
          lastNodeId: 7,
          agentPositions: { '2': 7, '3': 9 },
          failCounter: 2,
          files: [
            { id: 'f1', name: 'foto.jpg', mimeType: 'image/jpeg', size: 3, origin: 'chat', sessionId: 's1' },
            { id: 'kb-1', name: 'manuale.pdf', mimeType: 'application/pdf', origin: 'rag' },
          ],
          constraints: {
            blacklist: { nodes: [4], chunks: ['4:0', 12] },
            filter: { must: [{ key: 'lang', match: { value: 'it' } }] },
            keep: true,
          },
        });
        await store.commit({
          record: second,
          history: [entry('user', 'dov è il mio ordine?', 2)],
          expectedVersion: 1,
        });
        expect(await store.load('s1')).toEqual(second);
        expect((await store.history('s1')).map((item) => item.content)).toEqual([
          'ciao',
          'Ciao!',
          'dov è il mio ordine?',
        ]);
        expect((await store.history('s1'))[1]).toEqual(
          entry('assistant', 'Ciao!', 1, { nodeId: 3, options: ['a', 'b'] }),
        );
      }),
    );

    cases.test(
      'history with a limit returns the most recent entries, oldest first',
      withStore(async (store) => {
        let record = emptySessionRecord('s2', '2026-01-01T00:00:00.000Z');
        for (let turn = 1; turn <= 5; turn++) {
          const next = nextRecord(record, {});
          await store.commit({
            record: next,
            history: [entry('user', `u${turn}`, turn), entry('assistant', `a${turn}`, turn)],
            expectedVersion: record.version,
          });
          record = next;
        }
        expect((await store.history('s2', { limit: 3 })).map((item) => item.content)).toEqual([
          'a4',
          'u5',
          'a5',
        ]);
        expect(await store.history('s2', { limit: 0 })).toEqual([]);
        expect(await store.history('s2', { limit: 100 })).toHaveLength(10);
      }),
    );

    cases.test(
      'a commit from a stale version fails with SESSION_CONFLICT and writes nothing',
      withStore(async (store) => {
        const first = nextRecord(emptySessionRecord('s3', '2026-01-01T00:00:00.000Z'), { state: { a: 1 } });
        await store.commit({ record: first, history: [entry('user', 'one', 1)], expectedVersion: 0 });
        const stale = nextRecord(emptySessionRecord('s3', '2026-01-01T00:00:00.000Z'), { state: { a: 2 } });
        const error = await store
          .commit({ record: stale, history: [entry('user', 'stale', 1)], expectedVersion: 0 })
          .catch((e: unknown) => e);
        expect(TreeAgentError.hasCode(error, 'SESSION_CONFLICT')).toBe(true);
        expect(await store.load('s3')).toEqual(first);
        expect((await store.history('s3')).map((item) => item.content)).toEqual(['one']);
      }),
    );

    cases.test(
      'of two commits racing from the same version, exactly one wins',
      withStore(async (store) => {
        const base = emptySessionRecord('s4', '2026-01-01T00:00:00.000Z');
        const results = await Promise.allSettled(
          ['x', 'y'].map((tag) =>
            store.commit({
              record: nextRecord(base, { state: { tag } }),
              history: [entry('user', tag, 1)],
              expectedVersion: 0,
            }),
          ),
        );
        expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
        const winner = (await store.load('s4'))!.state.tag;
        expect(await store.history('s4')).toEqual([entry('user', winner as string, 1)]);
      }),
    );

    cases.test(
      'sessions are independent, and delete removes one session only',
      withStore(async (store) => {
        for (const id of ['a', 'b']) {
          await store.commit({
            record: nextRecord(emptySessionRecord(id, '2026-01-01T00:00:00.000Z'), { state: { id } }),
            history: [entry('user', id, 1)],
            expectedVersion: 0,
          });
        }
        await store.delete('a');
        expect(await store.load('a')).toBeNull();
        expect(await store.history('a')).toEqual([]);
        expect((await store.load('b'))!.state).toEqual({ id: 'b' });
      }),
    );

    cases.test(
      'deleteSessions removes every session named, in one call, and no other',
      withStore(async (store) => {
        for (const id of ['u1', 'u2', 'keep']) {
          await store.commit({
            record: nextRecord(emptySessionRecord(id, '2026-01-01T00:00:00.000Z'), { state: { id } }),
            history: [entry('user', id, 1)],
            expectedVersion: 0,
          });
        }
        if (!store.deleteSessions)
          throw new Error(`${name}: implement deleteSessions (personal data requests).`);
        await store.deleteSessions(['u1', 'u2', 'never-stored']);
        for (const id of ['u1', 'u2']) {
          expect(await store.load(id)).toBeNull();
          expect(await store.history(id)).toEqual([]);
        }
        expect((await store.load('keep'))!.state).toEqual({ id: 'keep' });
        expect(await store.history('keep')).toEqual([entry('user', 'keep', 1)]);
        await store.deleteSessions([]);
      }),
    );

    cases.test(
      "keeps the session's language: fixed by a commit without history, then through the turns",
      withStore(async (store) => {
        // What `TreeAgent.setSessionLanguage` commits when a session starts with a locale.
        const started = nextRecord(emptySessionRecord('lang', '2026-01-01T00:00:00.000Z'), {
          language: 'en',
        });
        await store.commit({ record: started, history: [], expectedVersion: 0 });
        expect((await store.load('lang'))!.language).toBe('en');
        expect(await store.history('lang')).toEqual([]);
        const turn = nextRecord(started, { turn: 1, lastNodeId: 3 });
        await store.commit({ record: turn, history: [entry('user', 'hello', 1)], expectedVersion: 1 });
        expect(await store.load('lang')).toEqual(turn);
        expect(turn.language).toBe('en');
      }),
    );

    cases.test(
      'values read are copies: changing them does not change the store',
      withStore(async (store) => {
        const record = nextRecord(emptySessionRecord('s5', '2026-01-01T00:00:00.000Z'), {
          state: { list: [1] },
        });
        await store.commit({ record, history: [entry('user', 'x', 1)], expectedVersion: 0 });
        record.state.list = [2];
        const loaded = (await store.load('s5'))!;
        (loaded.state.list as number[]).push(3);
        expect((await store.load('s5'))!.state).toEqual({ list: [1] });
      }),
    );
  });

  describe(`SessionStore conformance (inbound receipts): ${name}`, () => {
    const receipt = { channel: 'telegram', messageId: 'update-41' };
    cases.test(
      'a commit records its inbound receipt; a second commit with it fails with DUPLICATE_DELIVERY and writes nothing',
      withStore(async (store) => {
        if (!store.hasReceipt) throw new Error(`${name} has no hasReceipt(): skip this test with a reason.`);
        expect(await store.hasReceipt(receipt)).toBe(false);
        const first = nextRecord(emptySessionRecord('r1', '2026-01-01T00:00:00.000Z'), { state: { n: 1 } });
        await store.commit({
          record: first,
          history: [entry('user', 'ciao', 1)],
          expectedVersion: 0,
          inbound: receipt,
        });
        expect(await store.hasReceipt(receipt)).toBe(true);
        expect(await store.hasReceipt({ channel: 'slack', messageId: 'update-41' })).toBe(false);
        const again = nextRecord(first, { state: { n: 2 } });
        const error = await store
          .commit({
            record: again,
            history: [entry('user', 'ciao', 2)],
            expectedVersion: 1,
            inbound: receipt,
          })
          .catch((e: unknown) => e);
        expect(TreeAgentError.hasCode(error, 'DUPLICATE_DELIVERY')).toBe(true);
        expect(await store.load('r1')).toEqual(first);
        expect((await store.history('r1')).map((item) => item.content)).toEqual(['ciao']);
        // Another update of the same conversation runs.
        await store.commit({
          record: again,
          history: [entry('user', 'again', 2)],
          expectedVersion: 1,
          inbound: { channel: 'telegram', messageId: 'update-42' },
        });
        expect((await store.load('r1'))?.version).toBe(2);
      }),
    );

    cases.test(
      'of two commits racing with the same receipt on two sessions, exactly one wins',
      withStore(async (store) => {
        if (!store.hasReceipt) throw new Error(`${name} has no hasReceipt(): skip this test with a reason.`);
        const results = await Promise.allSettled(
          ['r2', 'r3'].map((id) =>
            store.commit({
              record: nextRecord(emptySessionRecord(id, '2026-01-01T00:00:00.000Z'), {}),
              history: [entry('user', id, 1)],
              expectedVersion: 0,
              inbound: receipt,
            }),
          ),
        );
        expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
        const loser = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
        expect(TreeAgentError.hasCode(loser.reason, 'DUPLICATE_DELIVERY')).toBe(true);
      }),
    );

    cases.test(
      'a commit adds its outbound channel messages to the channel store’s outbox in the same write; a refused commit adds none',
      withStore(async (store) => {
        if (!store.channelStore || !store.hasReceipt)
          throw new Error(`${name} has no channelStore(): skip this test with a reason.`);
        const conversation = { channel: 'telegram', conversationId: '555', userId: '77' };
        const outbound = (id: string, text: string) => [
          {
            id,
            sessionId: 'r5',
            conversation,
            payload: { type: 'text' as const, text, options: [] },
          },
        ];
        const first = nextRecord(emptySessionRecord('r5', '2026-01-01T00:00:00.000Z'), {});
        await store.commit({
          record: first,
          history: [entry('user', 'ciao', 1)],
          expectedVersion: 0,
          inbound: { channel: 'telegram', messageId: 'update-51' },
          outbound: outbound('telegram:update-51:0', 'Ciao!'),
        });
        const channels = store.channelStore();
        const leased = await channels.lease(new Date(), 10, 60_000);
        expect(leased.map((item) => [item.id, item.sessionId, item.payload])).toEqual([
          ['telegram:update-51:0', 'r5', { type: 'text', text: 'Ciao!', options: [] }],
        ]);
        await channels.delivered('telegram:update-51:0');
        // The same update again: refused, and its answer is not queued a second time.
        const error = await store
          .commit({
            record: nextRecord(first, {}),
            history: [],
            expectedVersion: 1,
            inbound: { channel: 'telegram', messageId: 'update-51' },
            outbound: outbound('telegram:update-51:1', 'again'),
          })
          .catch((e: unknown) => e);
        expect(TreeAgentError.hasCode(error, 'DUPLICATE_DELIVERY')).toBe(true);
        expect(await channels.lease(new Date(Date.now() + 120_000), 10, 60_000)).toEqual([]);
      }),
    );

    cases.test(
      'deleting a session deletes its receipts',
      withStore(async (store) => {
        if (!store.hasReceipt) throw new Error(`${name} has no hasReceipt(): skip this test with a reason.`);
        const first = nextRecord(emptySessionRecord('r4', '2026-01-01T00:00:00.000Z'), {});
        await store.commit({ record: first, history: [], expectedVersion: 0, inbound: receipt });
        if (store.deleteSessions) await store.deleteSessions(['r4']);
        else await store.delete('r4');
        expect(await store.hasReceipt(receipt)).toBe(false);
      }),
    );
  });

  describe(`SessionStore conformance (locks): ${name}`, () => {
    cases.test(
      'lock, when the store has one, serialises holders of the same session and not of others',
      withStore(async (store) => {
        if (!store.lock) throw new Error(`${name} has no lock(): skip this test with a reason.`);
        const order: string[] = [];
        const release1 = await store.lock('L');
        const second = store.lock('L').then(async (release) => {
          order.push('second acquired');
          await release();
        });
        const other = await store.lock('M');
        order.push('other session acquired');
        await other();
        await new Promise((resolve) => setTimeout(resolve, 50));
        order.push('first releasing');
        await release1();
        await second;
        expect(order).toEqual(['other session acquired', 'first releasing', 'second acquired']);
      }),
    );
    cases.done();
  });
}

function nextRecord(previous: SessionRecord, changes: Partial<SessionRecord>): SessionRecord {
  return {
    ...previous,
    ...changes,
    version: previous.version + 1,
    turn: previous.turn + 1,
    updatedAt: '2026-01-01T00:00:01.000Z',
  };
}

function entry(
  role: HistoryEntry['role'],
  content: string,
  turn: number,
  extra: Partial<HistoryEntry> = {},
): HistoryEntry {
  return { role, content, turn, at: '2026-01-01T00:00:00.000Z', ...extra };
}
