import { InMemoryHandoffQueue } from '@treeagent/core/adapter';
import { describe, expect, it } from 'vitest';
import { operatorDirectory } from '../operators/operator-accounts.js';
import { testApp } from '../test-support/fixtures.js';
import { handoffAgent, queuedHandoff } from '../test-support/handoff.js';
import { loginOperator, testOperatorAccounts } from '../test-support/operators.js';

/** The n-th waiting conversation of the backlog, a second apart from 2026-12-07 08:00. */
const waiting = (index: number) =>
  queuedHandoff(index, { since: new Date(Date.UTC(2026, 11, 7, 8) + index * 1000).toISOString() });

describe('the console queue', () => {
  it('lists every open conversation, the newest too, past the 200 a store gives by default', async () => {
    const queue = new InMemoryHandoffQueue();
    for (let index = 0; index < 250; index++) await queue.put(waiting(index));
    const { app } = testApp({
      agent: handoffAgent(),
      operators: { directory: operatorDirectory(await testOperatorAccounts()) },
      handoff: { queue },
    });
    const headers = { 'X-Operator-Token': await loginOperator(app, 'bruno') };
    const list = async (query: string) =>
      (
        (await (await app.request(`/api/v1/operator/handoffs${query}`, { headers })).json()) as {
          handoffs: { sessionId: string }[];
        }
      ).handoffs.map((handoff) => handoff.sessionId);
    const open = await list('?status=open');
    expect(open).toHaveLength(250);
    expect(open.at(-1)).toBe('s-0249');
    expect(await list('?status=open&limit=10')).toHaveLength(10);
  });
});
