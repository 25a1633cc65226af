import { describe, expect, it } from 'vitest';
import {
  type AgentEvent,
  type AgentOutput,
  defineTree,
  type EmitAfterSpecial,
  MessageType,
  type NodeDefinition,
  TreeAgent,
  type TreeAgentOptions,
} from '../index.js';
import { ExactEmbedder, ScriptedLanguageModel } from '../test/index.js';
import { rejection } from '../test/rejection.js';

// Routing is chosen by the test: every text below has an exact vector; any other text embeds to
// the zero vector, which is similar to nothing.
const VECTORS: Record<string, number[]> = {
  alpha: [1, 0, 0, 0],
  alpha2: [0.8, 0.6, 0, 0],
  beta: [0, 1, 0, 0],
  gamma: [0, 0, 1, 0],
  delta: [0, 0, 0, 1],
};

function makeAgent(nodes: NodeDefinition[], options: Omit<TreeAgentOptions, 'tree'> = {}): TreeAgent {
  return new TreeAgent({
    tree: defineTree({ nodes }),
    embedder: new ExactEmbedder({ vectors: VECTORS }),
    models: new ScriptedLanguageModel({ answers: 'scripted answer' }),
    ...options,
  });
}

const say = (content: string) => ({ message: { type: MessageType.STATIC, content } });

/** Ids of the nodes a turn executed, in order. */
function executed(output: AgentOutput): number[] {
  return output.trace.flatMap((event) =>
    event.type === 'step-start' && event.step === 'execute' ? [event.nodeId] : [],
  );
}

function eventsOf<T extends AgentEvent['type']>(
  events: readonly AgentEvent[],
  type: T,
): Extract<AgentEvent, { type: T }>[] {
  return events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('where an interaction starts', () => {
  it('explores from the primary agent on the first interaction', async () => {
    const agent = makeAgent([
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
    const agent = makeAgent([
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
    const agent = makeAgent([
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
    const agent = makeAgent([
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

describe('after outputs', () => {
  /**
   * 3 (alpha) and 4 (beta) are emits under the agent; 5 is an empty node holding 6 (gamma) and 7 (delta).
   * `after3` is the after callback of node 3.
   */
  function agentWithAfter(after3: NonNullable<Extract<NodeDefinition, { type: 'emit' }>['after']>) {
    return makeAgent([
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
    const agent = makeAgent([
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
    const agent = makeAgent([
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
    const agent = makeAgent([
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
      return makeAgent([
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
      const agent = makeAgent([
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

describe('beforeRun', () => {
  function agentWithBeforeRun(
    beforeRun: NonNullable<Extract<NodeDefinition, { type: 'root' }>['beforeRun']>,
    afterOf3: string[] = [],
  ) {
    return makeAgent([
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

describe('nodes that answer the user', () => {
  it('an emit ends the turn; its after runs only when the next message arrives', async () => {
    let afterCalls = 0;
    const agent = makeAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        emit: say('A'),
        after: () => {
          afterCalls++;
          return { nodeTarget: 4, step: 'before' };
        },
      },
      { id: 4, type: 'emit', parent: 2, emit: say('B') },
    ]);
    const first = await agent.send('s', 'alpha');
    expect(afterCalls).toBe(0);
    expect(first.messages.map((m) => m.content)).toEqual(['A']);
    const second = await agent.send('s', 'whatever');
    expect(afterCalls).toBe(1);
    expect(second.messages.map((m) => m.content)).toEqual(['B']);
  });

  it('a guardrail ends the turn with a warning', async () => {
    const agent = makeAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      { id: 3, type: 'emit', parent: 2, chunks: ['alpha'], emit: say('A') },
      { id: 4, type: 'guardrail', parent: 2, chunks: ['beta'], warning: 'Please be polite.' },
    ]);
    const output = await agent.send('s', 'beta');
    expect(executed(output)).toEqual([4]);
    expect(output.nodeId).toBe(4);
    expect(output.messages).toHaveLength(1);
    expect(output.messages[0]).toMatchObject({
      nodeId: 4,
      type: 'static',
      content: 'Please be polite.',
      isWarning: true,
    });
    const history = await agent.history('s');
    expect(history[1]).toMatchObject({ role: 'assistant', content: 'Please be polite.', isWarning: true });
  });

  it('mute emits deliver their message and continue: one turn carries several messages', async () => {
    const afters: number[] = [];
    const agent = makeAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        isMute: true,
        emit: say('one'),
        after: (_self, _context, special) => {
          afters.push(3);
          expect(special.message?.content).toBe('one');
          return { nodeTarget: 4, step: 'before' };
        },
      },
      {
        id: 4,
        type: 'emit',
        parent: 2,
        isMute: true,
        emit: say('two'),
        after: () => {
          afters.push(4);
          return { nodeTarget: 5, step: 'before' };
        },
      },
      { id: 5, type: 'emit', parent: 2, emit: say('three') },
    ]);
    const output = await agent.send('s', 'alpha');
    expect(afters).toEqual([3, 4]);
    expect(executed(output)).toEqual([3, 4, 5]);
    expect(output.messages.map((m) => [m.id, m.nodeId, m.content])).toEqual([
      ['1-1', 3, 'one'],
      ['1-2', 4, 'two'],
      ['1-3', 5, 'three'],
    ]);
    expect(output.nodeId).toBe(5);
    const history = await agent.history('s');
    expect(history.map((entry) => entry.content)).toEqual(['alpha', 'one', 'two', 'three']);
  });

  it('a mute guardrail delivers its warning and the turn continues', async () => {
    const agent = makeAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        isMute: true,
        emit: say('one'),
        after: () => ({ nodeTarget: 8, step: 'before' }),
      },
      {
        id: 9,
        type: 'empty',
        parent: 2,
        isAnchor: true,
        isBlocking: true,
        after: () => ({ nodeTarget: 4, step: 'before' }),
      },
      { id: 8, type: 'guardrail', parent: 9, isMute: true, warning: 'careful' },
      { id: 4, type: 'emit', parent: 2, emit: say('done') },
    ]);
    const output = await agent.send('s', 'alpha');
    expect(executed(output)).toEqual([3, 8, 9, 4]);
    expect(output.messages.map((m) => [m.content, m.isWarning])).toEqual([
      ['one', false],
      ['careful', true],
      ['done', false],
    ]);
  });
});

describe('links', () => {
  it('callbacks read node ids through links', async () => {
    const agent = makeAgent([
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
    const agent = makeAgent([
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
    const agent = makeAgent([
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
      const agent = makeAgent([
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
    const agent = makeAgent([
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

describe('explore constraints between interactions', () => {
  function constrainedAgent(keep: boolean, seen: unknown[]) {
    return makeAgent([
      {
        id: 1,
        type: 'root',
        beforeRun: (_self, context) => void seen.push(context.exploreStrategy.constraints.toJSON()),
      },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        emit: say('A'),
        before: (_self, context) => {
          context.exploreStrategy.constraints.keep = keep;
          context.exploreStrategy.constraints.blacklist.add(4, 'node');
          context.exploreStrategy.constraints.filter = { must: [{ key: 'lang', match: { value: 'en' } }] };
        },
      },
      { id: 4, type: 'emit', parent: 2, chunks: [{ text: 'beta', extra: { lang: 'en' } }], emit: say('B') },
    ]);
  }

  it('blacklist and filter are cleared at the end of the interaction by default', async () => {
    const seen: unknown[] = [];
    const agent = constrainedAgent(false, seen);
    await agent.send('s', 'alpha');
    expect((await agent.sessionStore.load('s'))!.constraints).toBeNull();
    const output = await agent.send('s', 'beta');
    expect(seen[1]).toEqual({ blacklist: { nodes: [], chunks: [] }, filter: null, keep: false });
    expect(executed(output)).toEqual([4]);
  });

  it('with keep, blacklist and filter persist in the session', async () => {
    const seen: unknown[] = [];
    const agent = constrainedAgent(true, seen);
    await agent.send('s', 'alpha');
    const kept = {
      blacklist: { nodes: [4], chunks: [] },
      filter: { must: [{ key: 'lang', match: { value: 'en' } }] },
      keep: true,
    };
    expect((await agent.sessionStore.load('s'))!.constraints).toEqual(kept);
    const output = await agent.send('s', 'beta');
    expect(seen[1]).toEqual(kept);
    // Node 4 stays blacklisted: nothing fits.
    expect(output.status).toBe('no-match');
  });
});
