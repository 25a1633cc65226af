import { describe, expect, it } from 'vitest';
import { InMemorySessionStore, type SendOptions, TreeAgentError } from '../index.js';
import { say, testAgent } from '../test-support/engine-fixtures.js';

describe('inbound receipts (exactly once for messaging channels)', () => {
  const agentWith = (calls: string[]) =>
    testAgent(
      [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: ['alpha'],
          emit: () => {
            calls.push('emit');
            return say('A');
          },
        },
      ],
      { sessionStore: new InMemorySessionStore() },
    );

  it('a redelivered update fails with DUPLICATE_DELIVERY and runs nothing', async () => {
    const calls: string[] = [];
    const agent = agentWith(calls);
    const inbound = { channel: 'telegram', messageId: '1001' };
    await agent.send('s1', 'alpha', { inbound });
    const error = await agent.send('s1', 'alpha', { inbound }).catch((e: unknown) => e);
    expect(TreeAgentError.hasCode(error, 'DUPLICATE_DELIVERY')).toBe(true);
    expect(calls).toEqual(['emit']);
    expect((await agent.history('s1')).filter((entry) => entry.role === 'user')).toHaveLength(1);
    await agent.send('s1', 'alpha', { inbound: { channel: 'telegram', messageId: '1002' } });
    expect(calls).toEqual(['emit', 'emit']);
  });

  it('refuses an inbound receipt that is not two non-empty strings', async () => {
    const agent = agentWith([]);
    const error = await agent
      .send('s1', 'alpha', { inbound: { channel: '', messageId: '1' } })
      .catch((e: unknown) => e);
    expect(TreeAgentError.hasCode(error, 'INVALID_INPUT')).toBe(true);
    expect((error as Error).message).toContain('inbound must be');
  });

  it('replyTo: the answer joins the channel outbox in the turn’s own commit, under the update’s id', async () => {
    const sessionStore = new InMemorySessionStore();
    const agent = testAgent(
      [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        { id: 3, type: 'emit', parent: 2, chunks: ['alpha'], emit: () => say('A') },
      ],
      { sessionStore },
    );
    const replyTo = { channel: 'telegram', conversationId: '555', userId: '77' };
    let outbound: unknown;
    const commit = sessionStore.commit.bind(sessionStore);
    sessionStore.commit = async (value) => {
      outbound = value.outbound;
      return commit(value);
    };
    await agent.send('s2', 'alpha', { inbound: { channel: 'telegram', messageId: '2001' }, replyTo });
    expect(outbound).toEqual([
      {
        id: 'telegram:2001:0',
        sessionId: 's2',
        conversation: replyTo,
        payload: { type: 'text', text: 'A', options: [] },
      },
    ]);
    const leased = await sessionStore.channelStore().lease(new Date(), 10, 1000);
    expect(leased.map((item) => item.id)).toEqual(['telegram:2001:0']);
  });

  it('refuses replyTo without inbound of the same channel, or not a conversation, naming the fix', async () => {
    const agent = agentWith([]);
    const replyTo = { channel: 'telegram', conversationId: '555', userId: '77' };
    for (const [options, text] of [
      [{ replyTo }, 'replyTo needs inbound from the same channel'],
      [
        { replyTo, inbound: { channel: 'whatsapp', messageId: '1' } },
        'replyTo needs inbound from the same channel',
      ],
      [
        { replyTo: { channel: 'telegram' }, inbound: { channel: 'telegram', messageId: '1' } },
        'replyTo must be a channel conversation',
      ],
    ] as const) {
      const error = await agent.send('s1', 'alpha', options as SendOptions).catch((e: unknown) => e);
      expect(TreeAgentError.hasCode(error, 'INVALID_INPUT')).toBe(true);
      expect((error as Error).message).toContain(text);
    }
  });
});
