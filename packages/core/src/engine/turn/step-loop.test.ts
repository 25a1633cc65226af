import { describe, expect, it } from 'vitest';
import type { NodeDefinition } from '../../index.js';
import { rejection } from '../../test/rejection.js';
import { eventsOf, executed, say, sleep, testAgent } from '../../test-support/engine-fixtures.js';

describe('after outputs', () => {
  /**
   * 3 (alpha) and 4 (beta) are emits under the agent; 5 is an empty node holding 6 (gamma) and 7 (delta).
   * `after3` is the after callback of node 3.
   */
  function agentWithAfter(after3: NonNullable<Extract<NodeDefinition, { type: 'emit' }>['after']>) {
    return testAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      { id: 3, type: 'emit', parent: 2, chunks: ['alpha'], emit: say('A'), after: after3 },
      { id: 4, type: 'emit', parent: 2, chunks: ['beta'], emit: say('B') },
      { id: 5, type: 'empty', parent: 2 },
      { id: 6, type: 'emit', parent: 5, chunks: ['gamma'], emit: say('G') },
      { id: 7, type: 'emit', parent: 5, chunks: ['delta'], emit: say('D') },
      { id: 8, type: 'agent', parent: 1 },
      { id: 9, type: 'emit', parent: 8, chunks: ['gamma'], emit: say('other agent') },
    ]);
  }

  it('no output: explores from the current node (a leaf just executed climbs to its anchor)', async () => {
    const agent = agentWithAfter(() => undefined);
    await agent.send('s', 'alpha');
    const output = await agent.send('s', 'beta');
    expect(executed(output)).toEqual([4]);
    const decisions = eventsOf(output.trace, 'explore-decision');
    expect(decisions[0]).toMatchObject({ nodeId: 3, action: 'leaf-climb', moved: false, nextNodeId: 2 });
    expect(decisions[1]).toMatchObject({ nodeId: 2, action: 'descend', moved: true, nextNodeId: 4 });
    expect(eventsOf(output.trace, 'fail-counter')).toEqual([
      { type: 'fail-counter', value: 1, nodeId: 3, reason: 'leaf' },
    ]);
    expect((await agent.sessionStore.load('s'))!.failCounter).toBe(1);
  });

  it('a node without after behaves like an after with no output, and the same node can run again', async () => {
    const agent = testAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      { id: 3, type: 'emit', parent: 2, chunks: ['alpha'], emit: say('A') },
      { id: 4, type: 'emit', parent: 2, chunks: ['beta'], emit: say('B') },
    ]);
    await agent.send('s', 'alpha');
    const again = await agent.send('s', 'alpha');
    expect(executed(again)).toEqual([3]);
    expect(eventsOf(again.trace, 'explore-decision')[0]).toMatchObject({ nodeId: 3, action: 'leaf-climb' });
  });

  it('without nodeTarget the step is ignored and exploration starts from the current node', async () => {
    const agent = agentWithAfter(() => ({ step: 'before' }));
    await agent.send('s', 'alpha');
    const output = await agent.send('s', 'beta');
    expect(executed(output)).toEqual([4]);
  });

  it('nodeTarget with step EXPLORE explores from the target', async () => {
    const agent = agentWithAfter(() => ({ nodeTarget: 5, step: 'explore' }));
    await agent.send('s', 'alpha');
    const output = await agent.send('s', 'delta');
    expect(executed(output)).toEqual([7]);
    const decisions = eventsOf(output.trace, 'explore-decision');
    expect(decisions[0]).toMatchObject({ nodeId: 5, action: 'descend', moved: false, nextNodeId: 7 });
    expect(eventsOf(output.trace, 'after-output')[0]).toMatchObject({
      nodeId: 3,
      nodeTarget: 5,
      step: 'explore',
      outcome: 'success',
      resume: false,
    });
  });

  it('nodeTarget defaults to step EXPLORE, and the target need not be a descendant (another agent)', async () => {
    const agent = agentWithAfter(() => ({ nodeTarget: 8 }));
    await agent.send('s', 'alpha');
    const output = await agent.send('s', 'gamma');
    expect(executed(output)).toEqual([9]);
    expect(output.messages[0]!.content).toBe('other agent');
  });

  it('nodeTarget with step BEFORE runs the target directly, whatever the message says', async () => {
    const agent = agentWithAfter(() => ({ nodeTarget: 7, step: 'before' }));
    await agent.send('s', 'alpha');
    const output = await agent.send('s', 'gamma');
    expect(executed(output)).toEqual([7]);
    expect(eventsOf(output.trace, 'explore-decision')).toHaveLength(0);
  });

  it('outcome FAILURE ignores the other fields and reaches the nearest anchor, blacklisting the node', async () => {
    let failures = 0;
    const agent = testAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      { id: 10, type: 'empty', parent: 2, isAnchor: true },
      {
        id: 11,
        type: 'empty',
        parent: 10,
        chunks: ['alpha'],
        after: () => {
          failures++;
          return { outcome: 'failure', nodeTarget: 13, step: 'before' };
        },
      },
      { id: 12, type: 'emit', parent: 10, chunks: ['alpha2'], emit: say('second best') },
      { id: 13, type: 'emit', parent: 2, chunks: ['delta'], emit: say('ignored target') },
    ]);
    const output = await agent.send('s', 'alpha');
    expect(failures).toBe(1);
    expect(executed(output)).toEqual([11, 12]);
    expect(output.messages.map((m) => m.content)).toEqual(['second best']);
    expect(eventsOf(output.trace, 'fail-counter')).toEqual([
      { type: 'fail-counter', value: 1, nodeId: 11, reason: 'failure-outcome' },
    ]);
    expect(eventsOf(output.trace, 'blacklist-add')).toEqual([
      { type: 'blacklist-add', kind: 'node', ids: [11], reason: 'failure-outcome' },
    ]);
    const afterFailure = eventsOf(output.trace, 'explore-decision').filter((d) => d.nodeId === 10);
    expect(afterFailure.at(-1)).toMatchObject({ action: 'descend', moved: true, nextNodeId: 12 });
    const record = await agent.sessionStore.load('s');
    expect(record!.failCounter).toBe(1);
    // keep is false by default: the blacklist does not outlive the interaction.
    expect(record!.constraints).toBeNull();
  });

  it('outcome FAILURE without an anchor climbs to the agent', async () => {
    const agent = testAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      { id: 11, type: 'empty', parent: 2, chunks: ['alpha'], after: () => ({ outcome: 'failure' }) },
      { id: 12, type: 'emit', parent: 2, chunks: ['alpha2'], emit: say('second best') },
    ]);
    const output = await agent.send('s', 'alpha');
    expect(executed(output)).toEqual([11, 12]);
    const decisions = eventsOf(output.trace, 'explore-decision');
    expect(decisions.at(-2)).toMatchObject({ nodeId: 2, action: 'descend', moved: true, nextNodeId: 12 });
  });

  describe('resume', () => {
    function multiAgent(log: string[]) {
      return testAgent([
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: ['alpha'],
          emit: say('primary asks'),
          after: (_self, _context, special) => {
            log.push(`after 3 message=${special.message?.content ?? null}`);
            // Resumed from the other agent: the message of node 3 is not the one pending.
            return special.message ? { nodeTarget: 20 } : { nodeTarget: 4, step: 'before' };
          },
        },
        { id: 4, type: 'emit', parent: 2, emit: say('primary resumed') },
        { id: 20, type: 'agent', parent: 1 },
        {
          id: 21,
          type: 'emit',
          parent: 20,
          chunks: ['gamma'],
          emit: say('secondary'),
          after: () => {
            log.push('after 21');
            return { nodeTarget: 2, resume: true };
          },
        },
        {
          id: 22,
          type: 'emit',
          parent: 2,
          chunks: ['delta'],
          emit: say('not an agent'),
          after: () => ({ nodeTarget: 4, resume: true }),
        },
      ]);
    }

    it('resume with an agent target continues that agent from its own last executed node', async () => {
      const log: string[] = [];
      const agent = multiAgent(log);
      await agent.send('s', 'alpha');
      const toSecondary = await agent.send('s', 'gamma');
      expect(executed(toSecondary)).toEqual([21]);
      expect((await agent.sessionStore.load('s'))!.agentPositions).toEqual({ 2: 3, 20: 21 });
      const back = await agent.send('s', 'anything');
      expect(log).toEqual(['after 3 message=primary asks', 'after 21', 'after 3 message=null']);
      expect(executed(back)).toEqual([4]);
      expect(back.messages[0]!.content).toBe('primary resumed');
      const steps = eventsOf(back.trace, 'step-start').map((e) => `${e.nodeId}:${e.step}`);
      expect(steps).toEqual(['21:after', '3:after', '4:before', '4:execute']);
    });

    it('resume with an agent that never ran explores that agent', async () => {
      const agent = testAgent([
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: ['alpha'],
          emit: say('A'),
          after: () => ({ nodeTarget: 20, resume: true }),
        },
        { id: 20, type: 'agent', parent: 1 },
        { id: 21, type: 'emit', parent: 20, chunks: ['gamma'], emit: say('secondary') },
      ]);
      await agent.send('s', 'alpha');
      const output = await agent.send('s', 'gamma');
      expect(executed(output)).toEqual([21]);
      expect(eventsOf(output.trace, 'explore-decision')[0]).toMatchObject({ nodeId: 20, action: 'descend' });
    });

    it('resume with a target that is not an agent is an error', async () => {
      const agent = multiAgent([]);
      await agent.send('s', 'delta');
      const error = await rejection(agent.send('s', 'anything'));
      expect(error.code).toBe('INVALID_STEP');
      expect(error.nodeId).toBe(22);
      expect(error.callback).toBe('after');
      expect(error.message).toContain('agent');
    });
  });

  it('a step other than EXPLORE or BEFORE is an invalid output', async () => {
    const agent = agentWithAfter(() => ({ nodeTarget: 4, step: 'execute' as 'before' }));
    await agent.send('s', 'alpha');
    const error = await rejection(agent.send('s', 'beta'));
    expect(error.code).toBe('INVALID_CALLBACK_OUTPUT');
    expect(error.nodeId).toBe(3);
    expect(error.callback).toBe('after');
    expect(error.details.field).toBe('step');
  });

  it('an unknown nodeTarget is an UNKNOWN_NODE error naming the node and the target', async () => {
    const agent = agentWithAfter(() => ({ nodeTarget: 999, step: 'before' }));
    await agent.send('s', 'alpha');
    const error = await rejection(agent.send('s', 'beta'));
    expect(error.code).toBe('UNKNOWN_NODE');
    expect(error.nodeId).toBe(3);
    expect(error.details.nodeTarget).toBe(999);
    expect(error.message).toContain('999');
  });

  it('targeting the root is an INVALID_STEP error', async () => {
    const agent = agentWithAfter(() => ({ nodeTarget: 1, step: 'before' }));
    await agent.send('s', 'alpha');
    const error = await rejection(agent.send('s', 'beta'));
    expect(error.code).toBe('INVALID_STEP');
  });

  it('targeting an agent with step BEFORE explores the agent', async () => {
    const agent = agentWithAfter(() => ({ nodeTarget: 8, step: 'before' }));
    await agent.send('s', 'alpha');
    const output = await agent.send('s', 'gamma');
    expect(executed(output)).toEqual([9]);
  });
});

describe('links', () => {
  it('callbacks read node ids through links', async () => {
    const agent = testAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'empty',
        parent: 2,
        chunks: ['alpha'],
        links: { next: 4 },
        after: (_self, _context, _special, links) => ({ nodeTarget: links.next, step: 'before' }),
      },
      { id: 4, type: 'emit', parent: 2, emit: say('linked') },
    ]);
    const output = await agent.send('s', 'alpha');
    expect(executed(output)).toEqual([3, 4]);
  });

  it('an unknown link name is an UNKNOWN_LINK error naming the node and listing its links', async () => {
    const agent = testAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'empty',
        parent: 2,
        chunks: ['alpha'],
        links: { next: 4, back: 2 },
        after: (_self, _context, _special, links) => ({ nodeTarget: links.missing, step: 'before' }),
      },
      { id: 4, type: 'emit', parent: 2, emit: say('linked') },
    ]);
    const error = await rejection(agent.send('s', 'alpha'));
    expect(error.code).toBe('UNKNOWN_LINK');
    expect(error.nodeId).toBe(3);
    expect(error.message).toContain('"missing"');
    expect(error.message).toContain('next, back');
    expect(error.details).toMatchObject({ link: 'missing', known: ['next', 'back'] });
  });
});

describe('sync and async callbacks', () => {
  it('awaits async callbacks and accepts plain return values from sync ones', async () => {
    const log: string[] = [];
    const agent = testAgent([
      { id: 1, type: 'root', beforeRun: async () => void log.push('beforeRun') },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'empty',
        parent: 2,
        chunks: ['alpha'],
        before: async () => {
          await sleep(5);
          log.push('before 3');
        },
        after: async () => {
          await sleep(5);
          log.push('after 3');
          return { nodeTarget: 4, step: 'before' };
        },
      },
      {
        id: 4,
        type: 'emit',
        parent: 2,
        before: () => void log.push('before 4'),
        emit: () => {
          log.push('emit 4');
          return say('sync emit');
        },
      },
    ]);
    const output = await agent.send('s', 'alpha');
    expect(log).toEqual(['beforeRun', 'before 3', 'after 3', 'before 4', 'emit 4']);
    expect(output.messages[0]!.content).toBe('sync emit');
  });

  it('an async callback that rejects is reported like a sync one that throws', async () => {
    for (const before of [
      () => {
        throw new Error('sync boom');
      },
      async () => {
        await sleep(1);
        throw new Error('async boom');
      },
    ]) {
      const agent = testAgent([
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        { id: 3, type: 'emit', parent: 2, chunks: ['alpha'], before, emit: say('A') },
      ]);
      const error = await rejection(agent.send('s', 'alpha'));
      expect(error.code).toBe('CALLBACK_ERROR');
      expect(error.nodeId).toBe(3);
      expect(error.callback).toBe('before');
      expect(error.message).toMatch(/boom/);
    }
  });
});

describe('no match', () => {
  it('ends the turn with status no-match when nothing fits and the agent has no fallback', async () => {
    const agent = testAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      { id: 3, type: 'emit', parent: 2, chunks: ['alpha'], emit: say('A') },
    ]);
    const output = await agent.send('s', 'unknown words');
    expect(output.status).toBe('no-match');
    expect(output.messages).toEqual([]);
    expect(eventsOf(output.trace, 'no-match')).toEqual([{ type: 'no-match', agentId: 2 }]);
  });
});
