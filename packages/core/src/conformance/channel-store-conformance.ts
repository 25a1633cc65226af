import { describe, expect } from 'vitest';
import type { ChannelConversation } from '../protocol/channel.js';
import type { ChannelDeliveryInput, ChannelStore } from '../protocol/channel-store.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/** A `ChannelStore` under test, and how to reopen it on the same storage (a restart, a second process). */
export interface ChannelStoreFixture {
  store: ChannelStore;
  reopen?: () => Promise<ChannelStore>;
  dispose(): Promise<void>;
}

const T0 = new Date('2026-12-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

function conversation(id: string, channel = 'telegram'): ChannelConversation {
  return { channel, conversationId: id, userId: `user-${id}` };
}

function text(id: string, chat: string, words: string, channel = 'telegram'): ChannelDeliveryInput {
  return {
    id,
    sessionId: `session-${chat}`,
    conversation: conversation(chat, channel),
    payload: { type: 'text', text: words, options: [] },
  };
}

/**
 * The behaviour every `ChannelStore` shares: a conversation maps to one session for good (in every
 * instance on the same storage), messages are added once, leased one per conversation in order,
 * retried, dead-lettered, counted per channel, put back in line, exported and deleted with their
 * session.
 */
export function describeChannelStore(
  name: string,
  open: () => Promise<ChannelStoreFixture>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} (ChannelStore conformance)`, () => {
    const cases = conformanceCases(`ChannelStore conformance of ${name}`, options);

    cases.test('maps a conversation to one session, stable across instances', async () => {
      const { store, reopen, dispose } = await open();
      try {
        expect(await store.sessionOf(conversation('42'), 'ch-a', at(0))).toBe('ch-a');
        expect(await store.sessionOf({ ...conversation('42'), threadId: 't1' }, 'ch-b', at(1))).toBe('ch-a');
        expect(await store.sessionOf(conversation('42', 'slack'), 'ch-c', at(1))).toBe('ch-c');
        expect(await store.conversationOf('ch-a')).toEqual({ ...conversation('42'), threadId: 't1' });
        expect(await store.conversationOf('nobody')).toBeNull();
        if (reopen) {
          const again = await reopen();
          expect(await again.sessionOf(conversation('42'), 'ch-z', at(2))).toBe('ch-a');
        }
      } finally {
        await dispose();
      }
    });

    cases.test('adds each message once and leases one per conversation, in order', async () => {
      const { store, dispose } = await open();
      try {
        await store.enqueue([text('a1', 'A', 'one'), text('a2', 'A', 'two'), text('b1', 'B', 'uno')], at(0));
        await store.enqueue([text('a1', 'A', 'changed')], at(0));
        const first = await store.lease(at(1), 10, 30_000);
        expect(first.map((item) => item.id).sort()).toEqual(['a1', 'b1']);
        expect(first.find((item) => item.id === 'a1')).toMatchObject({
          attempts: 1,
          status: 'pending',
          payload: { type: 'text', text: 'one' },
        });
        // a2 waits for a1, which is leased.
        expect(await store.lease(at(2), 10, 30_000)).toEqual([]);
        await store.delivered('a1');
        expect((await store.lease(at(3), 10, 30_000)).map((item) => item.id)).toEqual(['a2']);
        // b1's lease expired (a process died mid-send): it comes back with one more attempt.
        const again = await store.lease(at(40), 10, 30_000);
        expect(again.map((item) => [item.id, item.attempts])).toEqual([
          ['a2', 2],
          ['b1', 2],
        ]);
      } finally {
        await dispose();
      }
    });

    cases.test('retries at the time given, dead-letters, counts per channel, puts back in line', async () => {
      const { store, dispose } = await open();
      try {
        await store.enqueue(
          [text('x1', 'X', 'one'), text('x2', 'X', 'two'), text('s1', 'S', 'hi', 'slack')],
          at(0),
        );
        await store.lease(at(0), 10, 30_000);
        await store.failed('x1', 'HTTP 429', at(60), at(1));
        expect((await store.lease(at(20), 10, 30_000)).map((item) => item.id)).toEqual([]);
        const retried = await store.lease(at(61), 10, 30_000);
        expect(retried.map((item) => [item.id, item.lastError])).toEqual([
          ['x1', 'HTTP 429'],
          ['s1', null],
        ]);
        await store.failed('x1', 'HTTP 403', null, at(62));
        expect(await store.counts()).toEqual([
          { channel: 'slack', pending: 1, dead: 0 },
          { channel: 'telegram', pending: 1, dead: 1 },
        ]);
        const dead = await store.deadLetters();
        expect(dead.map((item) => [item.id, item.status, item.lastError])).toEqual([
          ['x1', 'dead', 'HTTP 403'],
        ]);
        // A dead message does not hold up the rest of its conversation.
        expect((await store.lease(at(63), 10, 30_000)).map((item) => item.id)).toContain('x2');
        expect(await store.retry('x1', at(64))).toBe(true);
        expect(await store.retry('x1', at(64))).toBe(false);
        expect(await store.retry('nothing', at(64))).toBe(false);
        expect(await store.deadLetters()).toEqual([]);
      } finally {
        await dispose();
      }
    });

    cases.test('a pending message survives a restart', async () => {
      const { store, reopen, dispose } = await open();
      try {
        if (!reopen) throw new Error(`${name} has no reopen(): skip this test with a reason.`);
        await store.enqueue([text('p1', 'P', 'kept')], at(0));
        const again = await reopen();
        expect((await again.lease(at(1), 10, 30_000)).map((item) => item.payload)).toEqual([
          { type: 'text', text: 'kept', options: [] },
        ]);
      } finally {
        await dispose();
      }
    });

    cases.test('exports and deletes the identities and messages of sessions', async () => {
      const { store, dispose } = await open();
      try {
        await store.sessionOf(conversation('A'), 'session-A', at(0));
        await store.sessionOf(conversation('B'), 'session-B', at(0));
        await store.enqueue([text('a1', 'A', 'one'), text('b1', 'B', 'two')], at(0));
        const data = await store.sessionData(['session-A']);
        expect(data.identities).toEqual([
          { sessionId: 'session-A', conversation: conversation('A'), createdAt: at(0).toISOString() },
        ]);
        expect(data.deliveries.map((item) => item.id)).toEqual(['a1']);
        expect(await store.deleteSessions(['session-A'])).toBe(2);
        expect(await store.sessionData(['session-A'])).toEqual({ identities: [], deliveries: [] });
        expect(await store.conversationOf('session-A')).toBeNull();
        expect(await store.conversationOf('session-B')).toEqual(conversation('B'));
        // The conversation starts a new session afterwards.
        expect(await store.sessionOf(conversation('A'), 'session-A2', at(5))).toBe('session-A2');
      } finally {
        await dispose();
      }
    });

    cases.test('deleting sessions deletes their inbox entries too', async () => {
      const { store, dispose } = await open();
      try {
        const inbox = store.inbox?.();
        if (!inbox) throw new Error(`${name} has no inbox(): a server cannot run a messaging channel on it.`);
        const entry = (messageId: string, chat: string) => ({
          channel: 'telegram',
          messageId,
          sessionId: `session-${chat}`,
          conversation: conversation(chat),
          text: 'what I wrote',
          selectedOption: null,
          attachments: [],
        });
        await inbox.add(entry('m1', 'A'), at(0));
        await inbox.add(entry('m2', 'B'), at(0));
        expect(await store.deleteSessions(['session-A'])).toBe(1);
        expect(await inbox.sessionEntries(['session-A', 'session-B'])).toMatchObject([{ messageId: 'm2' }]);
      } finally {
        await dispose();
      }
    });

    cases.test('finds the sessions of a platform user on one channel, and only theirs', async () => {
      const { store, dispose } = await open();
      try {
        // One user in two conversations (a direct chat and a group), another user, another channel.
        await store.sessionOf(
          { channel: 'telegram', conversationId: '10', userId: '77' },
          'session-1',
          at(0),
        );
        await store.sessionOf(
          { channel: 'telegram', conversationId: '-20', userId: '77' },
          'session-2',
          at(1),
        );
        await store.sessionOf(
          { channel: 'telegram', conversationId: '30', userId: '78' },
          'session-3',
          at(2),
        );
        await store.sessionOf(
          { channel: 'whatsapp', conversationId: '77', userId: '77' },
          'session-4',
          at(3),
        );
        expect(await store.sessionsOfUser('telegram', '77')).toEqual(['session-1', 'session-2']);
        expect(await store.sessionsOfUser('whatsapp', '77')).toEqual(['session-4']);
        expect(await store.sessionsOfUser('telegram', 'nobody')).toEqual([]);
      } finally {
        await dispose();
      }
    });

    cases.done();
  });
}
