import { describe, expect, it } from 'vitest';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import { defineComponent } from './define-component.js';
import { DEFAULT_SIMILARITY_THRESHOLD, defineTree } from './define-tree.js';
import type { NodeDefinition, Self } from './node-definition.js';
import type { Tree } from './tree.js';

const rootInit = (self: Self) => {
  self.visits = 0;
};
const headInit = (self: Self) => {
  self.attempts = 0;
};

/**
 * 1 root
 * └ 2 agent ☆
 *   ├ 3 empty (anchor) [hello, hi there]
 *   │ └ 4 emit [say hello]
 *   ├ 10 component ─ 11 head ─ 12 query [refunds*] ─ 13 llm (anchor) ─ 14 emit [{kb} refund policy] ─ 15 tail
 *   │ └ 16 emit [anything else]        (component child: hangs from 14)
 *   └ 5 llm [last]
 * └ 20 agent
 *   └ 21 emit [other]
 */
function sampleTree(exploreForRagChunks = true): Tree {
  return defineTree({
    nodes: [
      { id: 1, type: 'root', init: rootInit, ...(exploreForRagChunks ? { exploreForRagChunks } : {}) },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      { id: 3, type: 'empty', parent: 2, name: 'greeting', isAnchor: true, chunks: ['hello', 'hi there'] },
      { id: 4, type: 'emit', parent: 3, chunks: ['say hello'], links: { back: 3 } },
      { id: 10, type: 'component', parent: 2 },
      { id: 11, type: 'head', parent: 10, init: headInit },
      {
        id: 12,
        type: 'query',
        parent: 11,
        chunks: [{ text: 'refunds', forRag: true, extra: { lang: 'en' } }],
      },
      { id: 13, type: 'llm', parent: 12, isAnchor: true },
      { id: 14, type: 'emit', parent: 13, chunks: [{ id: 'kb', text: 'refund policy' }] },
      { id: 15, type: 'tail', parent: 14 },
      { id: 16, type: 'emit', parent: 10, chunks: ['anything else'] },
      { id: 5, type: 'llm', parent: 2, chunks: ['last'], isBlocking: true, isMute: true },
      { id: 20, type: 'agent', parent: 1 },
      { id: 21, type: 'emit', parent: 20, chunks: ['other'] },
    ],
  });
}

describe('the effective tree: component flattening (docs/concepts.md §8)', () => {
  const tree = sampleTree();

  it('drops component, head and tail nodes', () => {
    expect([...tree.nodes.keys()].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 12, 13, 14, 16, 20, 21]);
    for (const id of [10, 11, 15]) expect(tree.has(id)).toBe(false);
    for (const node of tree.nodes.values()) expect(['component', 'head', 'tail']).not.toContain(node.type);
  });

  it("rule 1: the head's child hangs from the component's parent", () => {
    expect(tree.node(12).parentId).toBe(2);
    expect(tree.node(2).children).toEqual([3, 12, 5]);
  });

  it("rule 2: the component's children hang from the tail's parent", () => {
    expect(tree.node(16).parentId).toBe(14);
    expect(tree.node(14).children).toEqual([16]);
  });

  it('keeps the expanded definition, component nodes included', () => {
    expect(tree.definition.nodes.map((node) => node.id)).toEqual([
      1, 2, 3, 4, 10, 11, 12, 13, 14, 15, 16, 5, 20, 21,
    ]);
  });

  it('computes depths in the effective tree', () => {
    const depths = Object.fromEntries([...tree.nodes.values()].map((node) => [node.id, node.depth]));
    expect(depths).toEqual({ 1: 0, 2: 1, 3: 2, 4: 3, 12: 2, 13: 3, 14: 4, 16: 5, 5: 2, 20: 1, 21: 2 });
  });

  it('gives every node its agent (the root has none)', () => {
    expect(tree.root.agentId).toBeNull();
    for (const id of [2, 3, 4, 5, 12, 13, 14, 16]) expect(tree.node(id).agentId).toBe(2);
    for (const id of [20, 21]) expect(tree.node(id).agentId).toBe(20);
  });

  it('gives every node its nearest anchor ancestor, the agent as last resort', () => {
    expect(tree.root.anchorId).toBeNull();
    expect(tree.node(2).anchorId).toBeNull();
    expect(tree.node(20).anchorId).toBeNull();
    expect(tree.node(3).anchorId).toBe(2);
    expect(tree.node(4).anchorId).toBe(3);
    expect(tree.node(12).anchorId).toBe(2);
    expect(tree.node(13).anchorId).toBe(2);
    expect(tree.node(14).anchorId).toBe(13);
    expect(tree.node(16).anchorId).toBe(13);
    expect(tree.node(5).anchorId).toBe(2);
    expect(tree.node(21).anchorId).toBe(20);
  });

  it('puts component nodes in the scope of their component, others in the root scope', () => {
    for (const id of [12, 13, 14]) expect(tree.node(id).scopeId).toBe(10);
    for (const id of [1, 2, 3, 4, 5, 16, 20, 21]) expect(tree.node(id).scopeId).toBe(1);
    expect(tree.scopes.get(1)).toEqual({ id: 1, kind: 'root', initNodeId: 1, init: rootInit });
    expect(tree.scopes.get(10)).toEqual({ id: 10, kind: 'component', initNodeId: 11, init: headInit });
    expect([...tree.scopes.keys()].sort((a, b) => a - b)).toEqual([1, 10]);
  });

  it('exposes the root and the primary agent', () => {
    expect(tree.root.id).toBe(1);
    expect(tree.root.type).toBe('root');
    expect(tree.primaryAgent.id).toBe(2);
  });

  it('keeps the definition, name, links and flags of each node', () => {
    const node = tree.node(3);
    expect(node.name).toBe('greeting');
    expect(node.definition.type).toBe('empty');
    expect(tree.node(4).links).toEqual({ back: 3 });
    expect(tree.node(5).links).toEqual({});
    expect(tree.node(5)).toMatchObject({ isBlocking: true, isMute: true, isAnchor: false });
    expect(tree.node(4)).toMatchObject({ isBlocking: false, isMute: false, isAnchor: false });
  });

  it('finds paths and subtrees across flattened components', () => {
    expect(tree.pathTo(16).map((node) => node.id)).toEqual([1, 2, 12, 13, 14, 16]);
    expect(tree.isInSubtree(16, 12)).toBe(true);
    expect(tree.isInSubtree(16, 2)).toBe(true);
    expect(tree.isInSubtree(16, 16)).toBe(true);
    expect(tree.isInSubtree(16, 3)).toBe(false);
    expect(tree.isInSubtree(2, 16)).toBe(false);
    expect(tree.isInSubtree(21, 2)).toBe(false);
    expect(tree.isInSubtree(999, 1)).toBe(false);
  });
});

describe('the effective tree: chunks', () => {
  const tree = sampleTree();

  it('lists chunks depth first: own chunks, then each child subtree in order', () => {
    expect(tree.chunks.map((chunk) => [chunk.nodeId, chunk.text])).toEqual([
      [3, 'hello'],
      [3, 'hi there'],
      [4, 'say hello'],
      [12, 'refunds'],
      [14, 'refund policy'],
      [16, 'anything else'],
      [5, 'last'],
      [21, 'other'],
    ]);
  });

  it('gives chunks default ids "<nodeId>:<index>" and keeps explicit ones', () => {
    expect(tree.chunks.map((chunk) => chunk.id)).toEqual([
      '3:0',
      '3:1',
      '4:0',
      '12:0',
      'kb',
      '16:0',
      '5:0',
      '21:0',
    ]);
  });

  it('defaults forRag to false and extra to {}', () => {
    expect(tree.chunks[0]).toEqual({ id: '3:0', text: 'hello', forRag: false, extra: {}, nodeId: 3 });
    expect(tree.chunks[3]).toEqual({
      id: '12:0',
      text: 'refunds',
      forRag: true,
      extra: { lang: 'en' },
      nodeId: 12,
    });
  });

  it('gives each node its own chunks', () => {
    expect(tree.node(3).chunks.map((chunk) => chunk.text)).toEqual(['hello', 'hi there']);
    expect(tree.node(13).chunks).toEqual([]);
    for (const node of tree.nodes.values()) {
      expect(node.chunks).toEqual(tree.chunks.slice(node.chunkStart, node.ownChunkEnd));
    }
  });

  it('gives each node the range of its subtree: [chunkStart, ownChunkEnd) own, [ownChunkEnd, chunkEnd) below', () => {
    const ranges = (id: number) => {
      const node = tree.node(id);
      return [node.chunkStart, node.ownChunkEnd, node.chunkEnd];
    };
    expect(ranges(1)).toEqual([0, 0, 8]);
    expect(ranges(2)).toEqual([0, 0, 7]);
    expect(ranges(3)).toEqual([0, 2, 3]);
    expect(ranges(4)).toEqual([2, 3, 3]);
    expect(ranges(12)).toEqual([3, 4, 6]);
    expect(ranges(13)).toEqual([4, 4, 6]);
    expect(ranges(14)).toEqual([4, 5, 6]);
    expect(ranges(16)).toEqual([5, 6, 6]);
    expect(ranges(5)).toEqual([6, 7, 7]);
    expect(ranges(20)).toEqual([7, 7, 8]);
  });

  it('places every chunk in the range of exactly the nodes on its path', () => {
    tree.chunks.forEach((chunk, index) => {
      const path = new Set(tree.pathTo(chunk.nodeId).map((node) => node.id));
      for (const node of tree.nodes.values()) {
        expect(index >= node.chunkStart && index < node.chunkEnd).toBe(path.has(node.id));
      }
    });
  });

  it('childHolding finds the child whose subtree holds a chunk', () => {
    expect(tree.childHolding(2, 0).id).toBe(3);
    expect(tree.childHolding(2, 2).id).toBe(3);
    expect(tree.childHolding(2, 3).id).toBe(12);
    expect(tree.childHolding(2, 5).id).toBe(12);
    expect(tree.childHolding(2, 6).id).toBe(5);
    expect(tree.childHolding(1, 6).id).toBe(2);
    expect(tree.childHolding(1, 7).id).toBe(20);
    expect(tree.childHolding(12, 5).id).toBe(13);
  });

  it('childHolding agrees with the path for every chunk and every ancestor', () => {
    tree.chunks.forEach((chunk, index) => {
      const path = tree.pathTo(chunk.nodeId);
      for (let depth = 0; depth < path.length - 1; depth++) {
        expect(tree.childHolding(path[depth]!.id, index).id).toBe(path[depth + 1]!.id);
      }
    });
  });

  it('childHolding skips children without chunks', () => {
    const sparse = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        { id: 3, type: 'emit', parent: 2 },
        { id: 4, type: 'emit', parent: 2, chunks: ['a', 'b'] },
        { id: 5, type: 'emit', parent: 2 },
        { id: 6, type: 'emit', parent: 2 },
        { id: 7, type: 'emit', parent: 2, chunks: ['c'] },
        { id: 8, type: 'emit', parent: 2 },
      ],
    });
    expect(sparse.childHolding(2, 0).id).toBe(4);
    expect(sparse.childHolding(2, 1).id).toBe(4);
    expect(sparse.childHolding(2, 2).id).toBe(7);
  });
});

describe('the effective tree: similarity thresholds', () => {
  const nodes = (rootExtra: { defaultSimilarityThreshold?: number; similarityThreshold?: number }) =>
    [
      { id: 1, type: 'root', ...rootExtra },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      { id: 3, type: 'emit', parent: 2 },
      { id: 4, type: 'emit', parent: 2, similarityThreshold: 0.6 },
      { id: 5, type: 'emit', parent: 2, similarityThreshold: 0 },
      { id: 6, type: 'emit', parent: 2, similarityThreshold: -1 },
    ] satisfies NodeDefinition[];

  it('defaults to DEFAULT_SIMILARITY_THRESHOLD (0.25)', () => {
    const tree = defineTree({ nodes: nodes({}) });
    expect(DEFAULT_SIMILARITY_THRESHOLD).toBe(0.25);
    expect(tree.node(1).similarityThreshold).toBe(0.25);
    expect(tree.node(2).similarityThreshold).toBe(0.25);
    expect(tree.node(3).similarityThreshold).toBe(0.25);
  });

  it("uses the root's defaultSimilarityThreshold for nodes that set none", () => {
    const tree = defineTree({ nodes: nodes({ defaultSimilarityThreshold: 0.4 }) });
    expect(tree.node(1).similarityThreshold).toBe(0.4);
    expect(tree.node(2).similarityThreshold).toBe(0.4);
    expect(tree.node(3).similarityThreshold).toBe(0.4);
  });

  it("keeps a node's own threshold, including 0 and -1", () => {
    const tree = defineTree({ nodes: nodes({ defaultSimilarityThreshold: 0.4, similarityThreshold: 0.1 }) });
    expect(tree.node(1).similarityThreshold).toBe(0.1);
    expect(tree.node(4).similarityThreshold).toBe(0.6);
    expect(tree.node(5).similarityThreshold).toBe(0);
    expect(tree.node(6).similarityThreshold).toBe(-1);
  });
});

describe('the effective tree: nested components', () => {
  /**
   * 2 agent
   * └ 10 component ─ 11 head ─ 20 component ─ 21 head ─ 22 llm ─ 23 tail
   *                            └ 24 emit (child of 20: hangs from 22) ─ 13 tail (of 10)
   *   └ 30 emit (child of 10: hangs from 24)
   */
  const tree = defineTree({
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      { id: 10, type: 'component', parent: 2 },
      { id: 11, type: 'head', parent: 10, init: headInit },
      { id: 20, type: 'component', parent: 11 },
      { id: 21, type: 'head', parent: 20, init: rootInit },
      { id: 22, type: 'llm', parent: 21, chunks: ['inner'] },
      { id: 23, type: 'tail', parent: 22 },
      { id: 24, type: 'emit', parent: 20, chunks: ['middle'] },
      { id: 13, type: 'tail', parent: 24 },
      { id: 30, type: 'emit', parent: 10, chunks: ['outer'] },
    ],
  });

  it('flattens through both components', () => {
    expect(tree.node(2).children).toEqual([22]);
    expect(tree.node(22).parentId).toBe(2);
    expect(tree.node(24).parentId).toBe(22);
    expect(tree.node(30).parentId).toBe(24);
    expect(tree.pathTo(30).map((node) => node.id)).toEqual([1, 2, 22, 24, 30]);
    expect(tree.chunks.map((chunk) => chunk.text)).toEqual(['inner', 'middle', 'outer']);
  });

  it('gives each component its own scope: nested components do not share self', () => {
    expect(tree.node(22).scopeId).toBe(20);
    expect(tree.node(24).scopeId).toBe(10);
    expect(tree.node(30).scopeId).toBe(1);
    expect(tree.scopes.get(20)).toEqual({ id: 20, kind: 'component', initNodeId: 21, init: rootInit });
    expect(tree.scopes.get(10)).toEqual({ id: 10, kind: 'component', initNodeId: 11, init: headInit });
  });
});

describe('the effective tree: forRag chunks are retrieval-only by default', () => {
  const tree = sampleTree(false);

  it("leaves forRag chunks out of exploration's chunks", () => {
    expect(tree.chunks.map((chunk) => chunk.id)).toEqual(['3:0', '3:1', '4:0', 'kb', '16:0', '5:0', '21:0']);
    expect(tree.chunks.some((chunk) => chunk.forRag)).toBe(false);
  });

  it("keeps them on the node's chunks and ragChunks", () => {
    const refunds = { id: '12:0', text: 'refunds', forRag: true, extra: { lang: 'en' }, nodeId: 12 };
    expect(tree.node(12).chunks).toEqual([refunds]);
    expect(tree.node(12).ragChunks).toEqual([refunds]);
    expect(tree.node(3).ragChunks).toEqual([]);
  });

  it('gives node 12 an empty own range, its subtree the rest', () => {
    const node = tree.node(12);
    expect([node.chunkStart, node.ownChunkEnd, node.chunkEnd]).toEqual([3, 3, 5]);
    expect(tree.childHolding(2, 3).id).toBe(12);
  });

  it('with exploreForRagChunks, forRag chunks are signposts too', () => {
    expect(sampleTree(true).chunks.map((chunk) => chunk.id)).toContain('12:0');
  });
});

describe('the effective tree: a component used twice', () => {
  const knowledge = defineComponent({
    name: 'knowledge',
    nodes: [
      { id: 1, type: 'head', init: headInit },
      {
        id: 2,
        type: 'query',
        parent: 1,
        chunks: [{ id: 'doc', text: 'refund policy', forRag: true }, 'questions about refunds'],
      },
      { id: 3, type: 'llm', parent: 2, links: { answer: 4, retry: 2 } },
      { id: 4, type: 'emit', parent: 3, chunks: ['here is the answer'] },
      { id: 5, type: 'tail', parent: 4 },
    ],
  });
  const tree = defineTree({
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      { id: 100, type: 'component', parent: 2, use: knowledge, idBase: 100 },
      { id: 200, type: 'component', parent: 2, use: knowledge, idBase: 200 },
      { id: 300, type: 'emit', parent: 100, chunks: ['thanks'] },
      { id: 400, type: 'emit', parent: 200, links: { first: 103 } },
    ],
  });

  it('clones every node with id idBase + localId', () => {
    expect([...tree.nodes.keys()].sort((a, b) => a - b)).toEqual([
      1, 2, 102, 103, 104, 202, 203, 204, 300, 400,
    ]);
    expect(tree.node(102).type).toBe('query');
    expect(tree.node(203).type).toBe('llm');
    expect(tree.node(2).children).toEqual([102, 202]);
    expect(tree.node(104).children).toEqual([300]);
    expect(tree.node(204).children).toEqual([400]);
  });

  it('remaps links to the ids of the same clone', () => {
    expect(tree.node(103).links).toEqual({ answer: 104, retry: 102 });
    expect(tree.node(203).links).toEqual({ answer: 204, retry: 202 });
    expect(tree.node(400).links).toEqual({ first: 103 });
  });

  it('gives each use its own scope and init', () => {
    for (const id of [102, 103, 104]) expect(tree.node(id).scopeId).toBe(100);
    for (const id of [202, 203, 204]) expect(tree.node(id).scopeId).toBe(200);
    expect(tree.node(300).scopeId).toBe(1);
    expect(tree.scopes.get(100)).toEqual({ id: 100, kind: 'component', initNodeId: 101, init: headInit });
    expect(tree.scopes.get(200)).toEqual({ id: 200, kind: 'component', initNodeId: 201, init: headInit });
  });

  it('keeps chunk ids distinct: explicit ones prefixed with the component node id', () => {
    expect(tree.chunks.map((chunk) => [chunk.nodeId, chunk.id])).toEqual([
      [102, '102:1'],
      [104, '104:0'],
      [300, '300:0'],
      [202, '202:1'],
      [204, '204:0'],
    ]);
    expect(tree.node(102).ragChunks.map((chunk) => chunk.id)).toEqual(['100/doc']);
    expect(tree.node(202).ragChunks.map((chunk) => chunk.id)).toEqual(['200/doc']);
  });

  it('writes the expanded inline form in tree.definition', () => {
    const byId = new Map(tree.definition.nodes.map((node) => [node.id, node]));
    expect(byId.get(100)).toEqual({ id: 100, type: 'component', parent: 2 });
    expect(byId.get(101)).toMatchObject({ type: 'head', parent: 100 });
    expect(byId.get(201)).toMatchObject({ type: 'head', parent: 200 });
    expect(byId.get(205)).toEqual({ id: 205, type: 'tail', parent: 204 });
  });

  it('leaves the component definition untouched', () => {
    expect(knowledge.nodes[0]).toEqual({ id: 1, type: 'head', init: headInit });
    expect(knowledge.nodes[1]!.chunks![0]).toEqual({ id: 'doc', text: 'refund policy', forRag: true });
    expect(knowledge.nodes[2]).toEqual({ id: 3, type: 'llm', parent: 2, links: { answer: 4, retry: 2 } });
  });

  it('defineComponent returns its argument', () => {
    const definition = { name: 'x', nodes: [] };
    expect(defineComponent(definition)).toBe(definition);
  });
});

describe('the effective tree: depth', () => {
  it('builds a chain 20,000 nodes deep, inside a component (no recursion to overflow the stack)', () => {
    const depth = 20_000;
    const nodes: NodeDefinition[] = [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      { id: 3, type: 'component', parent: 2 },
      { id: 4, type: 'head', parent: 3 },
    ];
    for (let level = 0; level < depth; level++)
      nodes.push({ id: 10 + level, type: 'empty', parent: level ? 9 + level : 4, chunks: [`step ${level}`] });
    const tree = defineTree({ nodes });
    const deepest = tree.node(9 + depth);
    expect(deepest.depth).toBe(depth + 1);
    expect(deepest.scopeId).toBe(3);
    expect(deepest.anchorId).toBe(2);
    expect(tree.node(10)).toMatchObject({ parentId: 2, chunkStart: 0, ownChunkEnd: 1, chunkEnd: depth });
    expect(tree.node(2).chunkEnd).toBe(depth);
    expect(deepest).toMatchObject({ chunkStart: depth - 1, chunkEnd: depth });
  });

  it('keeps the order of 5,000 children under one parent', () => {
    const nodes: NodeDefinition[] = [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
    ];
    for (let id = 3; id < 5_003; id++) nodes.push({ id, type: 'empty', parent: 2, chunks: [`child ${id}`] });
    const tree = defineTree({ nodes });
    expect(tree.node(2).children).toEqual(nodes.slice(2).map((node) => node.id));
    expect(tree.chunks[4_999]!.text).toBe('child 5002');
  });
});

describe('Tree.node', () => {
  const tree = sampleTree();

  it('throws UNKNOWN_NODE naming the id and the tree', () => {
    let caught: unknown;
    try {
      tree.node(999);
    } catch (error) {
      caught = error;
    }
    expect(TreeAgentError.hasCode(caught, 'UNKNOWN_NODE')).toBe(true);
    const error = caught as TreeAgentError;
    expect(error.nodeId).toBe(999);
    expect(error.message).toContain('There is no node 999');
    expect(error.message).toContain(tree.name);
  });

  it('throws for a component, head or tail node and says to target a node inside', () => {
    for (const id of [10, 11, 15]) {
      expect(() => tree.node(id)).toThrow(/target a node inside them/);
    }
  });

  it('pathTo throws for an unknown node', () => {
    expect(() => tree.pathTo(999)).toThrow(TreeAgentError);
  });
});

describe('Tree.contentHash and name', () => {
  const build = (callbacks: Partial<NodeDefinition> = {}, text = 'hello', name?: string) =>
    defineTree({
      ...(name ? { name } : {}),
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        { id: 3, type: 'emit', parent: 2, chunks: [text], ...callbacks } as NodeDefinition,
      ],
    });

  it('is a 16-digit hex string, stable across builds', () => {
    const hash = build().contentHash;
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(build().contentHash).toBe(hash);
  });

  it('ignores callbacks', () => {
    const hash = build().contentHash;
    expect(build({ after: () => ({ nodeTarget: 2 }) }).contentHash).toBe(hash);
    expect(build({ after: () => undefined, before: async () => {} }).contentHash).toBe(hash);
  });

  it('changes with chunks, properties and constant callback outputs', () => {
    const hash = build().contentHash;
    expect(build({}, 'hello!').contentHash).not.toBe(hash);
    expect(build({ similarityThreshold: 0.5 }).contentHash).not.toBe(hash);
    const hi = build({ emit: { message: { type: 'static', content: 'Hi' } } }).contentHash;
    const bye = build({ emit: { message: { type: 'static', content: 'Bye' } } }).contentHash;
    expect(hi).not.toBe(hash);
    expect(bye).not.toBe(hi);
  });

  it('names the tree after its hash unless it has a name', () => {
    const unnamed = build();
    expect(unnamed.name).toBe(`tree-${unnamed.contentHash}`);
    expect(build({}, 'hello', 'support').name).toBe('support');
  });
});
