import { describe, expect, it } from 'vitest';
import { type EmitAfterSpecial, MessageType, type NodeDefinition } from '../../index.js';
import { rejection } from '../../test/rejection.js';
import { eventsOf, executed, say, testAgent } from '../../test-support/engine-fixtures.js';

describe('where an interaction starts', () => {
  it('explores from the primary agent on the first interaction', async () => {
    const agent = testAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      { id: 3, type: 'emit', parent: 2, chunks: ['alpha'], emit: say('from primary') },
      { id: 20, type: 'agent', parent: 1 },
      { id: 21, type: 'emit', parent: 20, chunks: ['alpha'], emit: say('from secondary') },
    ]);
    const output = await agent.send('s', 'alpha');
    expect(output.turn).toBe(1);
    expect(output.status).toBe('answered');
    expect(output.nodeId).toBe(3);
    expect(executed(output)).toEqual([3]);
    expect(output.messages.map((m) => m.content)).toEqual(['from primary']);
    const decisions = eventsOf(output.trace, 'explore-decision');
    expect(decisions[0]).toMatchObject({ nodeId: 2, action: 'descend', moved: false, nextNodeId: 3 });
    expect(decisions[1]).toMatchObject({ nodeId: 3, action: 'leaf', moved: true });
    expect(output.trace[0]).toMatchObject({ type: 'turn-start', sessionId: 's', turn: 1, message: 'alpha' });
  });

  it('resumes at the after of the last executed node, with the message it sent and the selected option', async () => {
    const specials: EmitAfterSpecial[] = [];
    const agent = testAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        emit: { message: { type: MessageType.STATIC, content: 'Continue?' }, options: ['Yes', 'No'] },
        after: (_self, _context, special) => {
          specials.push(special);
          return { nodeTarget: special.selectedOption === 'Yes' ? 4 : 5, step: 'before' };
        },
      },
      { id: 4, type: 'emit', parent: 2, emit: say('yes path') },
      { id: 5, type: 'emit', parent: 2, emit: say('no path') },
    ]);
    const first = await agent.send('s', 'alpha');
    expect(specials).toHaveLength(0);
    expect(first.messages[0]!.options).toEqual(['Yes', 'No']);

    const second = await agent.send('s', '', { selectedOption: 'Yes' });
    expect(second.trace.find((event) => event.type === 'step-start')).toEqual({
      type: 'step-start',
      nodeId: 3,
      step: 'after',
    });
    expect(specials[0]!.kind).toBe('emit');
    expect(specials[0]!.selectedOption).toBe('Yes');
    expect(specials[0]!.message).toMatchObject({ nodeId: 3, content: 'Continue?', options: ['Yes', 'No'] });
    expect(executed(second)).toEqual([4]);
    expect(second.messages[0]!.content).toBe('yes path');
    const history = await agent.history('s');
    expect(history[2]).toMatchObject({ role: 'user', content: 'Yes', selectedOption: 'Yes', turn: 2 });
  });

  it('recognises an option typed by the user (case-insensitively) as the selected option', async () => {
    const selected: (string | null)[] = [];
    const agent = testAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        emit: { message: { type: MessageType.STATIC, content: 'Continue?' }, options: ['Yes', 'No'] },
        after: (_self, _context, special) => {
          selected.push(special.selectedOption);
          return { nodeTarget: 3, step: 'before' };
        },
      },
    ]);
    await agent.send('s', 'alpha');
    await agent.send('s', '  no ');
    await agent.send('s', 'something else');
    expect(selected).toEqual(['No', null]);
  });

  it('rejects a selectedOption that is not among the options of the last message, saving nothing', async () => {
    let afterCalls = 0;
    const agent = testAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        emit: { message: { type: MessageType.STATIC, content: 'Continue?' }, options: ['Yes', 'No'] },
        after: () => {
          afterCalls++;
          return { nodeTarget: 3, step: 'before' };
        },
      },
    ]);
    await agent.send('s', 'alpha');
    const before = await agent.sessionStore.load('s');
    const error = await rejection(agent.send('s', '', { selectedOption: 'Maybe' }));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain('Maybe');
    expect(afterCalls).toBe(0);
    expect(await agent.sessionStore.load('s')).toEqual(before);
    expect(await agent.history('s')).toHaveLength(2);
  });
});

describe('beforeRun', () => {
  function agentWithBeforeRun(
    beforeRun: NonNullable<Extract<NodeDefinition, { type: 'root' }>['beforeRun']>,
    afterOf3: string[] = [],
  ) {
    return testAgent([
      { id: 1, type: 'root', beforeRun, links: { side: 5 } },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        emit: say('A'),
        after: (_self, _context, special) => {
          afterOf3.push(String(special.message?.content ?? null));
        },
      },
      { id: 4, type: 'emit', parent: 2, chunks: ['beta'], emit: say('B') },
      { id: 5, type: 'empty', parent: 2 },
      { id: 6, type: 'emit', parent: 5, chunks: ['gamma'], emit: say('G') },
      { id: 7, type: 'emit', parent: 5, chunks: ['delta'], emit: say('D') },
      { id: 20, type: 'agent', parent: 1 },
      { id: 21, type: 'emit', parent: 20, chunks: ['gamma'], emit: say('secondary') },
    ]);
  }

  it('receives whether this is the first interaction, the last node and the root links', async () => {
    const seen: unknown[] = [];
    const agent = agentWithBeforeRun((_self, _context, special, links) => {
      seen.push({ ...special, side: links.side });
    });
    await agent.send('s', 'alpha');
    await agent.send('s', 'beta');
    expect(seen).toEqual([
      { isFirstInteraction: true, lastNodeId: null, selectedOption: null, side: 5 },
      { isFirstInteraction: false, lastNodeId: 3, selectedOption: null, side: 5 },
    ]);
  });

  it('returning nothing keeps the normal start (primary agent, then the last node after)', async () => {
    const afters: string[] = [];
    const agent = agentWithBeforeRun(() => undefined, afters);
    expect(executed(await agent.send('s', 'alpha'))).toEqual([3]);
    expect(executed(await agent.send('s', 'beta'))).toEqual([4]);
    expect(afters).toEqual(['A']);
  });

  it('nodeTarget with the default step explores from the target, even on the first interaction', async () => {
    const agent = agentWithBeforeRun((_self, _context, _special, links) => ({ nodeTarget: links.side }));
    const output = await agent.send('s', 'delta');
    expect(executed(output)).toEqual([7]);
    expect(eventsOf(output.trace, 'explore-decision')[0]).toMatchObject({ nodeId: 5, action: 'descend' });
  });

  it('nodeTarget with step BEFORE runs the target directly and skips the last node after', async () => {
    const afters: string[] = [];
    let turn = 0;
    const agent = agentWithBeforeRun(() => {
      turn++;
      return turn === 2 ? { nodeTarget: 6, step: 'before' } : undefined;
    }, afters);
    await agent.send('s', 'alpha');
    const output = await agent.send('s', 'beta');
    expect(executed(output)).toEqual([6]);
    expect(afters).toEqual([]);
  });

  it('without nodeTarget, step and resume are ignored', async () => {
    const afters: string[] = [];
    const agent = agentWithBeforeRun(() => ({ step: 'before', resume: true }), afters);
    await agent.send('s', 'alpha');
    const output = await agent.send('s', 'beta');
    expect(afters).toEqual(['A']);
    expect(executed(output)).toEqual([4]);
  });

  it('resume with an agent continues it from its own last node (or explores it when it has none)', async () => {
    const afters: string[] = [];
    let turn = 0;
    const agent = agentWithBeforeRun(() => {
      turn++;
      if (turn === 2) return { nodeTarget: 20, resume: true };
      if (turn === 3) return { nodeTarget: 2, resume: true };
      return undefined;
    }, afters);
    await agent.send('s', 'alpha');
    const secondary = await agent.send('s', 'gamma');
    expect(executed(secondary)).toEqual([21]);
    expect(afters).toEqual([]);
    const back = await agent.send('s', 'beta');
    // Node 3's after runs; its message is not the pending one (node 21 sent the last message).
    expect(afters).toEqual(['null']);
    expect(executed(back)).toEqual([4]);
  });

  it('resume with a node that is not an agent is an INVALID_STEP error', async () => {
    const agent = agentWithBeforeRun(() => ({ nodeTarget: 3, resume: true }));
    const error = await rejection(agent.send('s', 'alpha'));
    expect(error.code).toBe('INVALID_STEP');
    expect(error.callback).toBe('beforeRun');
    expect(error.nodeId).toBe(1);
    expect(await agent.sessionStore.load('s')).toBeNull();
  });

  it('an unknown nodeTarget is an UNKNOWN_NODE error', async () => {
    const agent = agentWithBeforeRun(() => ({ nodeTarget: 404 }));
    const error = await rejection(agent.send('s', 'alpha'));
    expect(error.code).toBe('UNKNOWN_NODE');
    expect(error.callback).toBe('beforeRun');
  });
});
