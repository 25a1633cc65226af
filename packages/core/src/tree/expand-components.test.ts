import { describe, expect, it } from 'vitest';
import { TreeAgent } from '../engine/agent/tree-agent.js';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import { defineComponent } from './define-component.js';
import { defineTree } from './define-tree.js';
import type { ComponentDefinition, Self, TreeDefinition } from './node-definition.js';

/** `inner`: head → emit that counts its own visits in `self` and says how many. */
const inner = defineComponent({
  name: 'inner',
  nodes: [
    {
      id: 1,
      type: 'head',
      init: (self: Self) => {
        self.visits = 0;
      },
    },
    {
      id: 2,
      type: 'emit',
      parent: 1,
      chunks: [{ id: 'hello', text: 'hello inner' }],
      links: { self: 2 },
      emit: (self: Self) => {
        self.visits = (self.visits as number) + 1;
        return { message: { type: 'static', content: `inner ${String(self.visits)}` } };
      },
    },
  ],
});

/** `outer`: head → empty → a use of `inner` at local idBase 10 (local ids 11, 12). */
const outer = defineComponent({
  name: 'outer',
  nodes: [
    {
      id: 1,
      type: 'head',
      init: (self: Self) => {
        self.mine = 'outer';
      },
    },
    { id: 2, type: 'empty', parent: 1, links: { answer: 12 } },
    { id: 3, type: 'component', parent: 2, use: inner, idBase: 10 },
  ],
});

function treeWith(...uses: { id: number; idBase: number; use?: ComponentDefinition }[]): TreeDefinition {
  return {
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      ...uses.map(({ id, idBase, use }) => ({
        id,
        type: 'component' as const,
        parent: 2,
        use: use ?? outer,
        idBase,
      })),
    ],
  };
}

describe('a component that uses another component', () => {
  it('expands the nested use with ids outerIdBase + innerIdBase + localId', () => {
    const tree = defineTree(treeWith({ id: 100, idBase: 100 }));
    expect([...tree.nodes.keys()].sort((a, b) => a - b)).toEqual([1, 2, 102, 112]);
    expect(tree.node(2).children).toEqual([102]);
    expect(tree.node(102).children).toEqual([112]);
    expect(tree.node(112).type).toBe('emit');
    expect(tree.node(112).links).toEqual({ self: 112 });
    expect(tree.node(102).links).toEqual({ answer: 112 });
    expect(tree.chunks.map((chunk) => chunk.id)).toEqual(['103/hello']);
  });

  it('keeps two uses of the outer component apart', () => {
    const tree = defineTree(treeWith({ id: 100, idBase: 100 }, { id: 200, idBase: 200 }));
    expect([...tree.nodes.keys()].sort((a, b) => a - b)).toEqual([1, 2, 102, 112, 202, 212]);
    expect(new Set(tree.chunks.map((chunk) => chunk.id))).toEqual(new Set(['103/hello', '203/hello']));
  });

  it('gives each instance its own self scope', () => {
    const tree = defineTree(treeWith({ id: 100, idBase: 100 }, { id: 200, idBase: 200 }));
    expect(tree.node(102).scopeId).toBe(100);
    expect(tree.node(112).scopeId).toBe(103);
    expect(tree.node(212).scopeId).toBe(203);
    expect(tree.scopes.get(103)?.initNodeId).toBe(111);
    expect(tree.scopes.get(203)?.initNodeId).toBe(211);
  });

  it('runs: each inner instance keeps its own self across turns', async () => {
    const counter = defineComponent({
      name: 'counter',
      nodes: [
        {
          id: 1,
          type: 'head',
          init: (self: Self) => {
            self.visits = 0;
          },
        },
        {
          id: 2,
          type: 'emit',
          parent: 1,
          chunks: ['count'],
          emit: (self: Self) => {
            self.visits = (self.visits as number) + 1;
            return { message: { type: 'static', content: `visits ${String(self.visits)}` } };
          },
        },
      ],
    });
    const wrapper = defineComponent({
      name: 'wrapper',
      nodes: [
        { id: 1, type: 'head' },
        { id: 2, type: 'empty', parent: 1, chunks: ['count'] },
        { id: 3, type: 'component', parent: 2, use: counter, idBase: 10 },
      ],
    });
    const agent = new TreeAgent({ tree: defineTree(treeWith({ id: 100, idBase: 100, use: wrapper })) });
    const first = await agent.send('s', 'count');
    expect(first.messages[0]?.content).toBe('visits 1');
    // `self` is rebuilt each interaction (docs/concepts.md §10, init of root and heads).
    const second = await agent.send('s', 'count');
    expect(second.messages[0]?.content).toBe('visits 1');
  });

  it('reports a nested idBase whose ids collide with the outer component', () => {
    const clash = defineComponent({
      name: 'clash',
      nodes: [
        { id: 1, type: 'head' },
        { id: 2, type: 'empty', parent: 1 },
        { id: 3, type: 'component', parent: 2, use: inner, idBase: 1 },
      ],
    });
    let caught: unknown;
    try {
      defineTree(treeWith({ id: 100, idBase: 100, use: clash }));
    } catch (error) {
      caught = error;
    }
    expect(TreeAgentError.isInstance(caught)).toBe(true);
    const message = (caught as Error).message;
    expect(message).toMatch(
      /in component "clash", local id 2 is used by node 2 and by nested component "inner" \(node 3\)/,
    );
    expect(message).toMatch(/places its ids/);
  });

  it('reports a component that uses itself', () => {
    const loop: ComponentDefinition = { name: 'loop', nodes: [] };
    loop.nodes.push(
      { id: 1, type: 'head' },
      { id: 2, type: 'empty', parent: 1 },
      { id: 3, type: 'component', parent: 2, use: loop, idBase: 10 },
    );
    expect(() => defineTree(treeWith({ id: 100, idBase: 100, use: loop }))).toThrow(
      /component "loop" uses itself \("loop" → "loop"\)/,
    );
  });
});
