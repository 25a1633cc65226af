import { describe, expect } from 'vitest';
import type { ChannelInbox, ChannelInboxInput } from '../protocol/channel-inbox.js';
import type { ChannelStore } from '../protocol/channel-store.js';
import { emptySessionRecord, type SessionStore } from '../session/session-store.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/** A `ChannelInbox` under test, and how to reopen it on the same storage (a restart, a second process). */
export interface ChannelInboxFixture {
  inbox: ChannelInbox;
  reopen?: () => Promise<ChannelInbox>;
  dispose(): Promise<void>;
}

const T0 = new Date('2026-12-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

function message(messageId: string, chat: string, text: string, channel = 'slack'): ChannelInboxInput {
  return {
    channel,
    messageId,
    sessionId: `session-${channel}-${chat}`,
    conversation: { channel, conversationId: chat, userId: `user-${chat}`, threadId: null },
    text,
    selectedOption: null,
    attachments: [],
  };
}

const ids = (entries: readonly { messageId: string }[]) => entries.map((entry) => entry.messageId);

/**
 * The behaviour every `ChannelInbox` shares: a message is added once per channel and message id,
 * leased one per conversation in order (none while the head is leased or waits for its retry), taken
 * again after a dead process's lease (not while its lease is renewed), retried at the time given,
 * given up with its reason (kept for staff, out of its conversation's way, put back in line by them), counted per channel, kept across a restart, and exported and
 * deleted with its session.
 */
export function describeChannelInbox(
  name: string,
  open: () => Promise<ChannelInboxFixture>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} (ChannelInbox conformance)`, () => {
    const cases = conformanceCases(`ChannelInbox conformance of ${name}`, options);

    cases.test('adds a message once per channel and message id', async () => {
      const { inbox, dispose } = await open();
      try {
        expect(await inbox.add(message('m1', 'A', 'hello'), at(0))).toBe(true);
        // The platform's redelivery: nothing changes, the first text stays.
        expect(await inbox.add(message('m1', 'A', 'changed'), at(1))).toBe(false);
        // The same id on another channel is another message.
        expect(await inbox.add(message('m1', 'A', 'hello', 'teams'), at(1))).toBe(true);
        const leased = await inbox.lease(at(2), 10, 30_000);
        expect(leased.map((entry) => [entry.channel, entry.messageId, entry.text])).toEqual([
          ['slack', 'm1', 'hello'],
          ['teams', 'm1', 'hello'],
        ]);
        expect(leased[0]).toEqual({
          ...message('m1', 'A', 'hello'),
          status: 'pending',
          attempts: 1,
          nextAttemptAt: at(32).toISOString(),
          lastError: null,
          receivedAt: at(0).toISOString(),
        });
      } finally {
        await dispose();
      }
    });

    cases.test('leases one entry per conversation, in order, and again after a lease ends', async () => {
      const { inbox, dispose } = await open();
      try {
        await inbox.add(message('a1', 'A', 'one'), at(0));
        await inbox.add(message('b1', 'B', 'uno'), at(0));
        await inbox.add(message('a2', 'A', 'two'), at(1));
        await inbox.add(message('a3', 'A', 'three'), at(1));
        const first = await inbox.lease(at(2), 10, 30_000);
        expect(ids(first)).toEqual(['a1', 'b1']);
        // a2 waits while a1 is leased.
        expect(await inbox.lease(at(3), 10, 30_000)).toEqual([]);
        await inbox.done('slack', 'a1');
        await inbox.done('slack', 'a1');
        expect(ids(await inbox.lease(at(4), 10, 30_000))).toEqual(['a2']);
        // The process that leased b1 and a2 died: both come back after their lease, one more attempt each.
        const again = await inbox.lease(at(40), 10, 30_000);
        expect(again.map((entry) => [entry.messageId, entry.attempts])).toEqual([
          ['b1', 2],
          ['a2', 2],
        ]);
        expect(ids(await inbox.lease(at(41), 1, 30_000))).toEqual([]);
        await inbox.done('slack', 'a2');
        expect(ids(await inbox.lease(at(42), 10, 30_000))).toEqual(['a3']);
      } finally {
        await dispose();
      }
    });

    cases.test('a renewed lease keeps an entry from being taken again; an ended one does not', async () => {
      const { inbox, dispose } = await open();
      try {
        await inbox.add(message('r1', 'R', 'one'), at(0));
        await inbox.add(message('s1', 'S', 'one'), at(0));
        await inbox.lease(at(1), 10, 10_000);
        // r1's turn is still running: its worker renews the lease; s1's worker died.
        expect(await inbox.renew('slack', 'r1', at(21))).toBe(true);
        expect(ids(await inbox.lease(at(12), 10, 10_000))).toEqual(['s1']);
        expect(ids(await inbox.lease(at(21), 10, 10_000))).toEqual(['r1']);
        await inbox.done('slack', 'r1');
        expect(await inbox.renew('slack', 'r1', at(40))).toBe(false);
        await inbox.failed('slack', 's1', 'gave up', null, at(23));
        expect(await inbox.renew('slack', 's1', at(40))).toBe(false);
        expect((await inbox.failures()).map((entry) => entry.nextAttemptAt)).toEqual([at(23).toISOString()]);
      } finally {
        await dispose();
      }
    });

    cases.test('a limit takes the oldest conversations first', async () => {
      const { inbox, dispose } = await open();
      try {
        await inbox.add(message('c1', 'C', 'one'), at(0));
        await inbox.add(message('d1', 'D', 'one'), at(1));
        await inbox.add(message('e1', 'E', 'one'), at(2));
        expect(ids(await inbox.lease(at(3), 2, 30_000))).toEqual(['c1', 'd1']);
        expect(ids(await inbox.lease(at(3), 2, 30_000))).toEqual(['e1']);
        expect(await inbox.lease(at(3), 0, 30_000)).toEqual([]);
      } finally {
        await dispose();
      }
    });

    cases.test(
      'retries at the time given, gives up with the reason, counts per channel, puts back in line',
      async () => {
        const { inbox, dispose } = await open();
        try {
          await inbox.add(message('x1', 'X', 'one'), at(0));
          await inbox.add(message('x2', 'X', 'two'), at(0));
          await inbox.add(message('t1', 'T', 'hi', 'telegram'), at(0));
          await inbox.lease(at(0), 10, 30_000);
          await inbox.failed('slack', 'x1', 'the language model did not answer', at(60), at(1));
          await inbox.done('telegram', 't1');
          // x1 waits for its retry, and x2 waits for x1.
          expect(await inbox.lease(at(20), 10, 30_000)).toEqual([]);
          const retried = await inbox.lease(at(61), 10, 30_000);
          expect(retried.map((entry) => [entry.messageId, entry.attempts, entry.lastError])).toEqual([
            ['x1', 2, 'the language model did not answer'],
          ]);
          await inbox.failed('slack', 'x1', 'still no answer', null, at(62));
          await inbox.failed('slack', 'nothing', 'no such entry', null, at(62));
          expect(await inbox.counts()).toEqual([{ channel: 'slack', pending: 1, failed: 1 }]);
          const failures = await inbox.failures();
          expect(
            failures.map((entry) => [entry.messageId, entry.status, entry.lastError, entry.text]),
          ).toEqual([['x1', 'failed', 'still no answer', 'one']]);
          expect(failures[0]!.nextAttemptAt).toBe(at(62).toISOString());
          // A failed entry stays for staff but no longer holds up its conversation.
          expect(ids(await inbox.lease(at(63), 10, 30_000))).toEqual(['x2']);
          // And it is never leased again.
          await inbox.done('slack', 'x2');
          expect(await inbox.lease(at(999), 10, 30_000)).toEqual([]);
          // A redelivery of a failed message does not bring it back.
          expect(await inbox.add(message('x1', 'X', 'one'), at(1000))).toBe(false);
          // Staff puts it back in line: taken again from its first attempt, once.
          expect(await inbox.retry('slack', 'x1', at(1001))).toBe(true);
          expect(await inbox.retry('slack', 'x1', at(1001))).toBe(false);
          expect(await inbox.retry('slack', 'nothing', at(1001))).toBe(false);
          expect(await inbox.failures()).toEqual([]);
          const again = await inbox.lease(at(1002), 10, 30_000);
          expect(again.map((entry) => [entry.messageId, entry.attempts, entry.status])).toEqual([
            ['x1', 1, 'pending'],
          ]);
        } finally {
          await dispose();
        }
      },
    );

    cases.test('a pending entry survives a restart, its files and option with it', async () => {
      const { inbox, reopen, dispose } = await open();
      try {
        if (!reopen) throw new Error(`${name} has no reopen(): skip this test with a reason.`);
        const file = {
          id: 'file-1',
          name: 'receipt.pdf',
          mimeType: 'application/pdf',
          size: 3,
          origin: 'chat' as const,
          sessionId: 'session-slack-P',
        };
        await inbox.add(
          {
            ...message('p1', 'P', 'kept'),
            selectedOption: 'Yes',
            attachments: [file],
            conversation: {
              channel: 'slack',
              conversationId: 'P',
              userId: 'U1',
              threadId: '17.5',
              reply: { a: 'b' },
            },
          },
          at(0),
        );
        await inbox.lease(at(1), 10, 30_000);
        const again = await reopen();
        expect(await again.lease(at(2), 10, 30_000)).toEqual([]);
        const leased = await again.lease(at(31), 10, 30_000);
        expect(
          leased.map((entry) => [entry.text, entry.selectedOption, entry.attachments, entry.conversation]),
        ).toEqual([
          [
            'kept',
            'Yes',
            [file],
            { channel: 'slack', conversationId: 'P', userId: 'U1', threadId: '17.5', reply: { a: 'b' } },
          ],
        ]);
      } finally {
        await dispose();
      }
    });

    cases.test('exports and deletes the entries of sessions', async () => {
      const { inbox, dispose } = await open();
      try {
        await inbox.add(message('a1', 'A', 'one'), at(0));
        await inbox.add(message('a2', 'A', 'two'), at(1));
        await inbox.add(message('b1', 'B', 'uno'), at(1));
        await inbox.lease(at(2), 10, 30_000);
        await inbox.failed('slack', 'a1', 'gave up', null, at(3));
        expect(ids(await inbox.sessionEntries(['session-slack-A']))).toEqual(['a1', 'a2']);
        expect(await inbox.sessionEntries([])).toEqual([]);
        expect(await inbox.deleteSessions(['session-slack-A'])).toBe(2);
        expect(await inbox.sessionEntries(['session-slack-A'])).toEqual([]);
        expect(await inbox.failures()).toEqual([]);
        expect(ids(await inbox.sessionEntries(['session-slack-B']))).toEqual(['b1']);
        expect(await inbox.deleteSessions([])).toBe(0);
      } finally {
        await dispose();
      }
    });

    cases.done();
  });
}

/**
 * A session store whose commit removes the turn's inbox entry in the same transaction (SQLite,
 * PostgreSQL, memory): a turn committed with an update's receipt takes that update out of the inbox,
 * a refused commit (a duplicate receipt) leaves the inbox as it was.
 */
export async function expectInboxDoneInCommit(
  store: SessionStore & { channelStore(): ChannelStore },
): Promise<void> {
  const channels = store.channelStore();
  const inbox = channels.inbox?.();
  if (!inbox) throw new Error('The channel store has no inbox(): implement ChannelStore.inbox.');
  const conversation = { channel: 'telegram', conversationId: '900', userId: '9' };
  const sessionId = await channels.sessionOf(conversation, 'ch-inbox-commit', T0);
  const entry = (messageId: string) => ({
    channel: 'telegram',
    messageId,
    sessionId,
    conversation,
    text: 'hello',
    selectedOption: null,
    attachments: [],
  });
  await inbox.add(entry('u-1'), T0);
  await inbox.add(entry('u-2'), T0);
  await inbox.lease(T0, 10, 60_000);
  const record = emptySessionRecord(sessionId, T0.toISOString());
  await store.commit({
    record: { ...record, version: 1, turn: 1 },
    history: [],
    expectedVersion: 0,
    inbound: { channel: 'telegram', messageId: 'u-1' },
  });
  expect(ids(await inbox.sessionEntries([sessionId]))).toEqual(['u-2']);
  await expect(
    store.commit({
      record: { ...record, version: 2, turn: 2 },
      history: [],
      expectedVersion: 1,
      inbound: { channel: 'telegram', messageId: 'u-1' },
    }),
  ).rejects.toMatchObject({ code: 'DUPLICATE_DELIVERY' });
  await expect(
    store.commit({
      record: { ...record, version: 3, turn: 2 },
      history: [],
      expectedVersion: 0,
      inbound: { channel: 'telegram', messageId: 'u-2' },
    }),
  ).rejects.toMatchObject({ code: 'SESSION_CONFLICT' });
  // The refused commits changed nothing: u-2 waits for its turn.
  expect(ids(await inbox.sessionEntries([sessionId]))).toEqual(['u-2']);
}
