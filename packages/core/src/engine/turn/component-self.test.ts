import { describe, expect, it } from 'vitest';
import {
  type AgentEvent,
  type AgentOutput,
  defineComponent,
  defineTree,
  type NodeDefinition,
  type Self,
  TreeAgent,
} from '../../index.js';
import { ExactEmbedder } from '../../test/index.js';
import { executed, say } from '../../test-support/engine-fixtures.js';

const VECTORS: Record<string, number[]> = {
  alpha: [1, 0, 0],
  beta: [0, 1, 0],
  gamma: [0, 0, 1],
};

function selfInits(output: AgentOutput): Extract<AgentEvent, { type: 'self-init' }>[] {
  return output.trace.filter((event): event is Extract<AgentEvent, { type: 'self-init' }> => {
    return event.type === 'self-init';
  });
}

interface Sighting {
  turn: number;
  nodeId: number;
  callback: string;
  self: Self;
}

/**
 * A component: head (init counts, sets `self.count = 0` and `self.initedBy`), then an empty node
 * whose before increments `self.count` and whose after goes to the emit (local ids 2 → 3).
 */
function counterComponent(sightings: Sighting[], inits: { turn: number; component: number }[]) {
  return defineComponent({
    name: 'counter',
    nodes: [
      {
        id: 1,
        type: 'head',
        init: (self, context) => {
          inits.push({ turn: context.turn, component: context.node.id });
          self.count = 0;
        },
      },
      {
        id: 2,
        type: 'empty',
        parent: 1,
        links: { answer: 3 },
        before: (self, context) => {
          sightings.push({ turn: context.turn, nodeId: context.node.id, callback: 'before', self });
          self.count += 1;
        },
        after: (self, context, _special, links) => {
          sightings.push({ turn: context.turn, nodeId: context.node.id, callback: 'after', self });
          self.count += 1;
          return { nodeTarget: links.answer, step: 'before' };
        },
      },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        emit: (self, context) => {
          sightings.push({ turn: context.turn, nodeId: context.node.id, callback: 'emit', self });
          return say(`count ${self.count} root ${String(self.rootValue)}`);
        },
        after: (self, context) => {
          sightings.push({ turn: context.turn, nodeId: context.node.id, callback: 'after', self });
          // From instance 100, go to instance 200; from 200, stay.
          return context.node.id === 103 ? { nodeTarget: 202, step: 'before' } : undefined;
        },
      },
    ],
  });
}

function agentWithComponents() {
  const sightings: Sighting[] = [];
  const inits: { turn: number; component: number }[] = [];
  const rootInits: number[] = [];
  const counter = counterComponent(sightings, inits);
  const nodes: NodeDefinition[] = [
    {
      id: 1,
      type: 'root',
      init: (self, context) => {
        rootInits.push(context.turn);
        self.rootValue = 'root';
      },
    },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    {
      id: 3,
      type: 'emit',
      parent: 2,
      chunks: ['alpha'],
      emit: (self, context) => {
        sightings.push({ turn: context.turn, nodeId: 3, callback: 'emit', self });
        return say(`root scope sees count ${String(self.count)}`);
      },
      after: (self, context) => {
        sightings.push({ turn: context.turn, nodeId: 3, callback: 'after', self });
        return { nodeTarget: 102, step: 'before' };
      },
    },
    { id: 10, type: 'component', parent: 2, use: counter, idBase: 100 },
    { id: 20, type: 'component', parent: 2, use: counter, idBase: 200 },
  ];
  const agent = new TreeAgent({
    tree: defineTree({ nodes }),
    embedder: new ExactEmbedder({ vectors: VECTORS }),
  });
  return { agent, sightings, inits, rootInits };
}

describe('component self', () => {
  it('the head init is lazy: it does not run in interactions that touch no node of the component', async () => {
    const { agent, inits, rootInits } = agentWithComponents();
    const output = await agent.send('s', 'alpha');
    expect(executed(output)).toEqual([3]);
    expect(inits).toEqual([]);
    expect(rootInits).toEqual([1]);
    expect(selfInits(output)).toEqual([{ type: 'self-init', nodeId: 1, scope: 'root', componentId: 1 }]);
    expect(output.messages[0]!.content).toBe('root scope sees count undefined');
  });

  it('the head init runs once per interaction, and every node of the instance shares one self', async () => {
    const { agent, sightings, inits } = agentWithComponents();
    await agent.send('s', 'alpha');
    const output = await agent.send('s', 'beta');
    expect(executed(output)).toEqual([102, 103]);
    expect(inits).toEqual([{ turn: 2, component: 102 }]);
    expect(selfInits(output).filter((event) => event.scope === 'component')).toEqual([
      { type: 'self-init', nodeId: 101, scope: 'component', componentId: 10 },
    ]);
    // before +1, after +1: the emit sees 2, so before, after and emit used the same object.
    expect(output.messages[0]!.content).toBe('count 2 root undefined');
    const inComponent = sightings.filter((s) => s.turn === 2 && s.nodeId > 100);
    expect(inComponent.map((s) => `${s.nodeId}:${s.callback}`)).toEqual([
      '102:before',
      '102:after',
      '103:emit',
    ]);
    expect(new Set(inComponent.map((s) => s.self)).size).toBe(1);
  });

  it('self is rebuilt every interaction, and each instance has its own self and init', async () => {
    const { agent, sightings, inits } = agentWithComponents();
    await agent.send('s', 'alpha');
    await agent.send('s', 'beta');
    const third = await agent.send('s', 'gamma');
    // Node 103's after runs in the new interaction (instance 10 initialised again), then instance 20 runs.
    expect(executed(third)).toEqual([202, 203]);
    expect(inits).toEqual([
      { turn: 2, component: 102 },
      { turn: 3, component: 103 },
      { turn: 3, component: 202 },
    ]);
    expect(third.messages[0]!.content).toBe('count 2 root undefined');
    const turn2 = sightings.find((s) => s.turn === 2 && s.nodeId === 103)!.self;
    const turn3first = sightings.find((s) => s.turn === 3 && s.nodeId === 103)!.self;
    const turn3second = sightings.find((s) => s.turn === 3 && s.nodeId === 203)!.self;
    expect(turn3first).not.toBe(turn2);
    expect(turn3second).not.toBe(turn3first);
    expect(turn3first).toEqual({ count: 0 });
    expect(selfInits(third).map((event) => event.componentId)).toEqual([10, 20]);
  });

  it('nodes outside components see the root self, not a component self', async () => {
    const { agent, sightings } = agentWithComponents();
    await agent.send('s', 'alpha');
    await agent.send('s', 'beta');
    const rootSelves = sightings.filter((s) => s.nodeId === 3);
    expect(rootSelves).toHaveLength(2);
    for (const { self } of rootSelves) expect(self).toEqual({ rootValue: 'root' });
    const componentSelves = sightings.filter((s) => s.nodeId > 100);
    for (const { self } of componentSelves) expect(self).not.toHaveProperty('rootValue');
  });

  it('nested components do not share self with the component around them', async () => {
    const seen: Record<string, Self> = {};
    const nodes: NodeDefinition[] = [
      {
        id: 1,
        type: 'root',
        init: (self) => {
          self.level = 'root';
        },
      },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      { id: 30, type: 'component', parent: 2 },
      {
        id: 31,
        type: 'head',
        parent: 30,
        init: (self) => {
          self.level = 'outer';
        },
      },
      {
        id: 32,
        type: 'empty',
        parent: 31,
        chunks: ['alpha'],
        after: (self) => {
          seen.outer = self;
          return { nodeTarget: 36, step: 'before' };
        },
      },
      { id: 34, type: 'component', parent: 32 },
      {
        id: 35,
        type: 'head',
        parent: 34,
        init: (self) => {
          self.level = 'inner';
        },
      },
      {
        id: 36,
        type: 'emit',
        parent: 35,
        emit: (self) => {
          seen.inner = self;
          return say(`inner sees ${self.level}`);
        },
      },
    ];
    const agent = new TreeAgent({
      tree: defineTree({ nodes }),
      embedder: new ExactEmbedder({ vectors: VECTORS }),
    });
    expect(agent.tree.node(36).parentId).toBe(32);
    const output = await agent.send('s', 'alpha');
    expect(executed(output)).toEqual([32, 36]);
    expect(output.messages[0]!.content).toBe('inner sees inner');
    expect(seen.outer).toEqual({ level: 'outer' });
    expect(seen.inner).toEqual({ level: 'inner' });
    expect(selfInits(output).map((event) => [event.scope, event.componentId, event.nodeId])).toEqual([
      ['component', 30, 31],
      ['component', 34, 35],
    ]);
  });

  it('the root init runs once per interaction that uses root-scope callbacks', async () => {
    const inits: number[] = [];
    const agent = new TreeAgent({
      tree: defineTree({
        nodes: [
          {
            id: 1,
            type: 'root',
            init: (self, context) => {
              inits.push(context.turn);
              self.calls = 0;
            },
            beforeRun: (self) => void self.calls++,
            afterRun: (self) => void self.calls++,
          },
          { id: 2, type: 'agent', parent: 1, isPrimary: true },
          {
            id: 3,
            type: 'emit',
            parent: 2,
            chunks: ['alpha'],
            before: (self) => void self.calls++,
            emit: (self) => say(`calls ${self.calls}`),
          },
        ],
      }),
      embedder: new ExactEmbedder({ vectors: VECTORS }),
    });
    const first = await agent.send('s', 'alpha');
    const second = await agent.send('s', 'alpha');
    expect(inits).toEqual([1, 2]);
    expect(first.messages[0]!.content).toBe('calls 2');
    expect(second.messages[0]!.content).toBe('calls 2');
  });
});
