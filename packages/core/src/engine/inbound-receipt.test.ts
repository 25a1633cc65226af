import { describe, expect, it } from 'vitest';
import { InMemorySessionStore, TreeAgentError } from '../index.js';
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
});
