import { describe, expect, test } from 'vitest';
import { TreeAgentError } from '../../errors/tree-agent-error.js';
import { ExactEmbedder } from '../../test/exact-embedder.js';
import { defineTree } from '../../tree/define-tree.js';
import { TreeAgent } from '../agent/tree-agent.js';

const VECTORS = { hello: [1, 0, 0], order: [0, 1, 0], other: [0, 0, 1] };

/** An agent without `fallback` whose "order" node's `after` fails in the way given. */
function agentWithFailingAfter(after: () => unknown) {
  const tree = defineTree({
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['hello'],
        emit: { message: { type: 'static', content: 'Hi!' } },
      },
      {
        id: 4,
        type: 'emit',
        parent: 2,
        chunks: ['order'],
        emit: { message: { type: 'static', content: 'Which order?' } },
        after: after as never,
      },
    ],
  });
  return new TreeAgent({ tree, embedder: new ExactEmbedder({ vectors: VECTORS }) });
}

describe('a failed turn never leaves the session stuck', () => {
  const failures: [string, () => unknown, string][] = [
    [
      'after throws',
      () => {
        throw new Error('boom');
      },
      'CALLBACK_ERROR',
    ],
    ['after targets an unknown node', () => ({ nodeTarget: 999, step: 'before' }), 'UNKNOWN_NODE'],
    ['after returns a bad output', () => ({ nodeTarget: 'x', bogus: true }), 'INVALID_CALLBACK_OUTPUT'],
  ];
  for (const [name, after, code] of failures) {
    test(`${name}: the failed turn saves nothing of itself, and the next message starts from the primary agent`, async () => {
      const agent = agentWithFailingAfter(after);
      await agent.send('s', 'order');
      const before = await agent.sessionStore.load('s');
      expect(before?.lastNodeId).toBe(4);
      const failed = await agent.send('s', 'hello').catch((error: unknown) => error);
      expect(TreeAgentError.isInstance(failed), String(failed)).toBe(true);
      expect((failed as TreeAgentError).code).toBe(code);
      // Nothing of the failed turn: same history and turn count; only the position is cleared.
      const after1 = (await agent.sessionStore.load('s'))!;
      expect(after1).toMatchObject({
        turn: before!.turn,
        lastNodeId: null,
        pendingMessage: null,
        state: before!.state,
      });
      expect(await agent.history('s')).toHaveLength(2);
      // The next messages work again.
      const next = await agent.send('s', 'hello');
      expect(next.messages[0]?.content).toBe('Hi!');
      expect(next.turn).toBe(2);
    });
  }

  test('a cancelled turn keeps the position (retrying may succeed)', async () => {
    const agent = agentWithFailingAfter(() => ({ nodeTarget: null }));
    await agent.send('s', 'order');
    const controller = new AbortController();
    controller.abort(new Error('client left'));
    await expect(agent.send('s', 'hello', { signal: controller.signal })).rejects.toThrow();
    expect((await agent.sessionStore.load('s'))?.lastNodeId).toBe(4);
  });
});
