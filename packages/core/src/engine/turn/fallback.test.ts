import { describe, expect, it } from 'vitest';
import {
  type FallbackSpecial,
  type NodeDefinition,
  TreeAgentError,
  type TreeAgentOptions,
} from '../../index.js';
import { rejection } from '../../test/rejection.js';
import { collect, executed, say, testAgent } from '../../test-support/engine-fixtures.js';

type FallbackFn = NonNullable<Extract<NodeDefinition, { type: 'agent' }>['fallback']>;

/**
 * Agent 2 (with `fallback`, link `sorry` → 9):
 * - 3 (alpha): emit whose before throws;
 * - 4 (beta) and 5: empty nodes whose afters target each other (a cycle);
 * - 6 (gamma): emit whose after throws (on the next message);
 * - 9: the apology.
 */
function fallbackTree(fallback: FallbackFn | undefined, options: Omit<TreeAgentOptions, 'tree'> = {}) {
  return testAgent(
    [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true, links: { sorry: 9, other: 10 }, fallback },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        before: () => {
          throw new Error('boom in before');
        },
        emit: say('never'),
      },
      { id: 4, type: 'empty', parent: 2, chunks: ['beta'], after: () => ({ nodeTarget: 5, step: 'before' }) },
      { id: 5, type: 'empty', parent: 2, after: () => ({ nodeTarget: 4, step: 'before' }) },
      {
        id: 6,
        type: 'emit',
        parent: 2,
        chunks: ['gamma'],
        emit: say('G'),
        after: () => {
          throw new Error('boom in after');
        },
      },
      { id: 9, type: 'emit', parent: 2, emit: say('Sorry, something went wrong.') },
      { id: 10, type: 'emit', parent: 2, emit: say('Other apology.') },
    ],
    options,
  );
}

describe('fallback', () => {
  it('runs on a throwing callback and restarts at its nodeTarget from the before step', async () => {
    const specials: FallbackSpecial[] = [];
    const agent = fallbackTree((_self, _context, special, links) => {
      specials.push(special);
      return { nodeTarget: links.sorry };
    });
    const output = await agent.send('s', 'alpha');
    expect(output.status).toBe('fallback-error');
    expect(executed(output)).toEqual([9]);
    expect(output.messages.map((m) => m.content)).toEqual(['Sorry, something went wrong.']);
    expect(specials).toHaveLength(1);
    expect(specials[0]).toMatchObject({ nodeId: 3, step: 'before', noMatch: false });
    expect(specials[0]!.error.code).toBe('CALLBACK_ERROR');
    expect(specials[0]!.error.message).toContain('boom in before');
    const fallbackEvents = output.trace.filter((event) => event.type === 'fallback');
    expect(fallbackEvents).toEqual([
      {
        type: 'fallback',
        agentId: 2,
        error: {
          code: 'CALLBACK_ERROR',
          message: expect.stringContaining('boom in before'),
          nodeId: 3,
          callback: 'before',
          // The first frame in the author's code: this test file, where the callback throws.
          frame: expect.stringMatching(
            /^before \(.*packages\/core\/src\/engine\/turn\/fallback\.test\.ts:\d+:\d+\)$/,
          ),
        },
        nodeTarget: 9,
      },
    ]);
    const steps = output.trace
      .filter((event) => event.type === 'step-start')
      .map((event) => (event.type === 'step-start' ? `${event.nodeId}:${event.step}` : ''));
    expect(steps).toEqual(['3:before', '9:before', '9:execute']);
    expect(output.nodeId).toBe(9);
  });

  it('special.step says where the error happened (after of a resumed node)', async () => {
    const specials: FallbackSpecial[] = [];
    const agent = fallbackTree((_self, _context, special, links) => {
      specials.push(special);
      return { nodeTarget: links.sorry };
    });
    await agent.send('s', 'gamma');
    const output = await agent.send('s', 'anything');
    expect(specials[0]).toMatchObject({ nodeId: 6, step: 'after', noMatch: false });
    expect(specials[0]!.error.message).toContain('boom in after');
    expect(executed(output)).toEqual([9]);
  });

  it('runs when nothing fits the message, with special.noMatch', async () => {
    const specials: FallbackSpecial[] = [];
    const agent = fallbackTree((_self, _context, special, links) => {
      specials.push(special);
      return { nodeTarget: links.sorry };
    });
    const output = await agent.send('s', 'no idea');
    expect(output.status).toBe('fallback-no-match');
    expect(executed(output)).toEqual([9]);
    expect(specials[0]).toMatchObject({ nodeId: 2, step: 'explore', noMatch: true });
    expect(specials[0]!.error.code).toBe('NO_MATCH');
  });

  it('runs on LOOP when after callbacks cycle beyond maxSteps, and its target answers', async () => {
    const specials: FallbackSpecial[] = [];
    const agent = fallbackTree(
      (_self, _context, special, links) => {
        specials.push(special);
        return { nodeTarget: links.sorry };
      },
      { maxSteps: 6 },
    );
    const output = await agent
      .send('s', 'beta')
      .catch((error: TreeAgentError) => `rejected with ${error.code}: ${error.message}`);
    expect(specials[0]!.error.code).toBe('LOOP');
    expect(specials[0]!.nodeId).toBe(4);
    expect(output).toMatchObject({
      status: 'fallback-error',
      nodeId: 9,
      messages: [expect.objectContaining({ content: 'Sorry, something went wrong.' })],
    });
  });

  it('pairs every step-start with a step-end when maxSteps stops the loop (maxSteps 50)', async () => {
    const agent = fallbackTree((_self, _context, _special, links) => ({ nodeTarget: links.sorry }), {
      maxSteps: 50,
    });
    const output = await agent.send('s', 'beta');
    const starts = output.trace.filter((event) => event.type === 'step-start');
    const ends = output.trace.filter((event) => event.type === 'step-end');
    expect(starts.length).toBe(ends.length);
    const executes = starts.filter((event) => event.type === 'step-start' && event.step === 'execute');
    // 50 executions before the LOOP, then the fallback's target: never a 51st that starts and never ends.
    expect(executes.length).toBe(51);
    expect(output.trace.findIndex((event) => event.type === 'fallback')).toBeGreaterThan(
      output.trace.findLastIndex((event) => event.type === 'step-end' && event.nodeId !== 9),
    );
  });

  it('ends a failing step with a step-end naming the error code', async () => {
    const agent = fallbackTree((_self, _context, _special, links) => ({ nodeTarget: links.sorry }));
    const output = await agent.send('s', 'alpha');
    expect(output.trace.find((event) => event.type === 'step-end' && event.nodeId === 3)).toMatchObject({
      step: 'before',
      error: 'CALLBACK_ERROR',
    });
  });

  it('runs on LOOP when a node fails and reaches its anchor twice in one turn', async () => {
    const specials: FallbackSpecial[] = [];
    const agent = testAgent([
      { id: 1, type: 'root' },
      {
        id: 2,
        type: 'agent',
        parent: 1,
        isPrimary: true,
        links: { sorry: 9 },
        fallback: (_self, _context, special, links) => {
          specials.push(special);
          return { nodeTarget: links.sorry };
        },
      },
      { id: 10, type: 'empty', parent: 2, isAnchor: true },
      { id: 11, type: 'empty', parent: 10, chunks: ['alpha'], after: () => ({ outcome: 'failure' }) },
      {
        id: 12,
        type: 'empty',
        parent: 10,
        chunks: ['alpha2'],
        after: () => ({ nodeTarget: 11, step: 'before' }),
      },
      { id: 9, type: 'emit', parent: 2, emit: say('Sorry') },
    ]);
    const output = await agent.send('s', 'alpha');
    expect(executed(output)).toEqual([11, 12, 11, 9]);
    expect(specials).toHaveLength(1);
    expect(specials[0]).toMatchObject({ nodeId: 11, step: 'after', noMatch: false });
    expect(specials[0]!.error.code).toBe('LOOP');
    expect(output.messages.map((m) => m.content)).toEqual(['Sorry']);
  });

  it('targeting the node where the error started is an error', async () => {
    const agent = fallbackTree(() => ({ nodeTarget: 3 }));
    const error = await rejection(agent.send('s', 'alpha'));
    expect(error.code).toBe('INVALID_CALLBACK_OUTPUT');
    expect(error.nodeId).toBe(2);
    expect(error.callback).toBe('fallback');
    expect(error.message).toContain('node 3');
    expect(await agent.sessionStore.load('s')).toBeNull();
  });

  it('targeting the agent itself is an error', async () => {
    const agent = fallbackTree(() => ({ nodeTarget: 2 }));
    const error = await rejection(agent.send('s', 'alpha'));
    expect(error.code).toBe('INVALID_CALLBACK_OUTPUT');
    expect(error.callback).toBe('fallback');
  });

  it('targeting an unknown node is an UNKNOWN_NODE error', async () => {
    const agent = fallbackTree(() => ({ nodeTarget: 404 }));
    const error = await rejection(agent.send('s', 'alpha'));
    expect(error.code).toBe('UNKNOWN_NODE');
    expect(error.callback).toBe('fallback');
  });

  it('a fallback that throws fails the turn', async () => {
    const agent = fallbackTree(() => {
      throw new Error('fallback broke');
    });
    const error = await rejection(agent.send('s', 'alpha'));
    expect(error.code).toBe('CALLBACK_ERROR');
    expect(error.callback).toBe('fallback');
    expect(error.nodeId).toBe(2);
  });

  it('returns the error once a turn ran more than maxFallbacks fallbacks', async () => {
    let calls = 0;
    const agent = testAgent([
      { id: 1, type: 'root' },
      {
        id: 2,
        type: 'agent',
        parent: 1,
        isPrimary: true,
        fallback: () => {
          calls++;
          return { nodeTarget: calls % 2 === 1 ? 9 : 10 };
        },
      },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        before: () => {
          throw new Error('boom 3');
        },
        emit: say('never'),
      },
      {
        id: 9,
        type: 'emit',
        parent: 2,
        before: () => {
          throw new Error('boom 9');
        },
        emit: say('never'),
      },
      {
        id: 10,
        type: 'emit',
        parent: 2,
        before: () => {
          throw new Error('boom 10');
        },
        emit: say('never'),
      },
    ]);
    const error = await rejection(agent.send('s', 'alpha'));
    expect(calls).toBe(3);
    expect(error.code).toBe('CALLBACK_ERROR');
    expect(error.nodeId).toBe(9);
  });
});

describe('without a fallback', () => {
  it('send rejects with a TreeAgentError naming the node and the callback, keeping the cause', async () => {
    const agent = fallbackTree(undefined);
    const error = await rejection(agent.send('s', 'alpha'));
    expect(error).toBeInstanceOf(TreeAgentError);
    expect(error.code).toBe('CALLBACK_ERROR');
    expect(error.nodeId).toBe(3);
    expect(error.callback).toBe('before');
    expect((error.cause as Error).message).toBe('boom in before');
    expect(await agent.sessionStore.load('s')).toBeNull();
    expect(await agent.history('s')).toEqual([]);
  });

  it("send rejects with the turn's events attached, ending with the error event", async () => {
    const agent = fallbackTree(undefined);
    const error = await rejection(agent.send('s', 'alpha'));
    const types = error.events!.map((event) => event.type);
    expect(types[0]).toBe('turn-start');
    expect(types).toContain('explore-decision');
    expect(error.events!.find((event) => event.type === 'step-end')).toMatchObject({
      nodeId: 3,
      step: 'before',
      error: 'CALLBACK_ERROR',
    });
    expect(error.events!.at(-1)).toEqual({
      type: 'error',
      error: {
        code: 'CALLBACK_ERROR',
        message: expect.stringContaining('boom in before'),
        nodeId: 3,
        callback: 'before',
        frame: expect.stringMatching(/fallback\.test\.ts:\d+:\d+\)$/),
      },
    });
    expect(JSON.stringify(error.toJSON())).not.toContain('alpha');
  });

  it('LOOP after more than maxSteps executed nodes rejects', async () => {
    const agent = fallbackTree(undefined, { maxSteps: 6 });
    const error = await rejection(agent.send('s', 'beta'));
    expect(error.code).toBe('LOOP');
    // The message names the limit and the fix.
    expect(error.message).toMatch(/more than 6 nodes/);
    expect(error.message).toMatch(/maxSteps/);
  });

  it('the default maxSteps is 50', async () => {
    let afters = 0;
    const agent = testAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'empty',
        parent: 2,
        chunks: ['alpha'],
        after: () => {
          afters++;
          return { nodeTarget: 3, step: 'before' };
        },
      },
    ]);
    const error = await rejection(agent.send('s', 'alpha'));
    expect(error.code).toBe('LOOP');
    expect(afters).toBe(50);
  });

  it('stream() ends with an error event instead of turn-end', async () => {
    const agent = fallbackTree(undefined);
    const events = await collect(agent.stream('s', 'alpha'));
    expect(events.at(-1)).toEqual({
      type: 'error',
      error: expect.objectContaining({ code: 'CALLBACK_ERROR', nodeId: 3, callback: 'before' }),
    });
    expect(events.some((event) => event.type === 'turn-end')).toBe(false);
    expect(events[0]!.type).toBe('turn-start');
  });

  it('stream() reports invalid input as an error event too', async () => {
    const agent = fallbackTree(undefined);
    const events = await collect(agent.stream('', 'alpha'));
    expect(events).toEqual([{ type: 'error', error: expect.objectContaining({ code: 'INVALID_INPUT' }) }]);
  });
});
