import { describe, expect, it } from 'vitest';
import { TreeAgent } from '../engine/agent/tree-agent.js';
import type { AgentEvent, AgentOutput, ExploreAction } from '../protocol/events.js';
import { ExactEmbedder } from '../test/exact-embedder.js';
import type { ChunkDefinition } from '../tree/chunk.js';
import { defineTree } from '../tree/define-tree.js';
import type {
  AgentNodeDefinition,
  BeforeCallback,
  EmitNodeDefinition,
  NodeDefinition,
  RootNodeDefinition,
} from '../tree/node-definition.js';
import type { FallbackSpecial } from '../tree/specials.js';
import type { Tree } from '../tree/tree.js';

/*
 * The explore step (docs/concepts.md §5) driven through the real engine. Every chunk text is its own axis of
 * the ExactEmbedder, and a message is given by its similarity to each chunk text (the rest of its
 * unit length goes on a spare axis), so each test chooses every similarity it relies on.
 *
 *   1 root
 *   └─ 2 agent (primary)
 *      ├─ 10 emit  'greeting'    → 'Hi!'
 *      ├─ 15 emit  (no chunks)   → 'Sorry, I did not understand.'
 *      └─ 20 emit  'orders'      → 'Which order?'
 *         ├─ 21 emit 'tracking'   → 'Your parcel is on its way.'
 *         └─ 22 emit 'cancelling' → 'Your order is cancelled.'
 */

const ROOT = 1;
const AGENT = 2;
const GREET = 10;
const SORRY = 15;
const ORDERS = 20;
const TRACK = 21;
const CANCEL = 22;

const AXES = [
  'greeting',
  'orders',
  'tracking',
  'cancelling',
  'parcel',
  'saluto',
  'assistant',
  'by number',
  'by email',
  'account',
  'password',
  'email change',
] as const;
type Axis = (typeof AXES)[number];

/** An ExactEmbedder where each chunk text is a basis vector and each message has the given similarities. */
function embedder(messages: Record<string, Partial<Record<Axis, number>>>): ExactEmbedder {
  const dimensions = AXES.length + 1;
  const vectors: Record<string, number[]> = {};
  AXES.forEach((axis, i) => {
    vectors[axis] = Array.from({ length: dimensions }, (_, j) => (i === j ? 1 : 0));
  });
  for (const [message, similarities] of Object.entries(messages)) {
    const vector = AXES.map((axis) => similarities[axis] ?? 0);
    const rest = 1 - vector.reduce((sum, value) => sum + value * value, 0);
    if (rest < -1e-9) throw new Error(`similarities of "${message}" need a vector longer than 1`);
    vectors[message] = [...vector, Math.sqrt(Math.max(0, rest))];
  }
  return new ExactEmbedder({ vectors });
}

type EmitPatch = Partial<Omit<EmitNodeDefinition, 'id' | 'type' | 'parent'>>;

function emit(
  id: number,
  parent: number,
  chunks: (string | ChunkDefinition)[],
  content: string,
  patch: EmitPatch = {},
): EmitNodeDefinition {
  return { id, type: 'emit', parent, chunks, emit: { message: { type: 'static', content } }, ...patch };
}

interface ShopOptions {
  root?: Partial<Omit<RootNodeDefinition, 'id' | 'type'>>;
  agent?: Partial<Omit<AgentNodeDefinition, 'id' | 'type' | 'parent'>>;
  greet?: EmitPatch;
  orders?: EmitPatch;
  track?: EmitPatch;
  cancel?: EmitPatch;
  extra?: NodeDefinition[];
}

function shopTree(options: ShopOptions = {}): Tree {
  return defineTree({
    nodes: [
      { id: ROOT, type: 'root', ...options.root },
      { id: AGENT, type: 'agent', parent: ROOT, isPrimary: true, ...options.agent },
      emit(GREET, AGENT, ['greeting'], 'Hi!', options.greet),
      emit(SORRY, AGENT, [], 'Sorry, I did not understand.'),
      emit(ORDERS, AGENT, ['orders'], 'Which order?', options.orders),
      emit(TRACK, ORDERS, ['tracking'], 'Your parcel is on its way.', options.track),
      emit(CANCEL, ORDERS, ['cancelling'], 'Your order is cancelled.', options.cancel),
      ...(options.extra ?? []),
    ],
  });
}

function agentFor(tree: Tree, messages: Record<string, Partial<Record<Axis, number>>>) {
  const exact = embedder(messages);
  return { agent: new TreeAgent({ tree, embedder: exact }), embedder: exact };
}

type EventOf<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>;

function events<T extends AgentEvent['type']>(output: AgentOutput, type: T): EventOf<T>[] {
  return output.trace.filter((event): event is EventOf<T> => event.type === type);
}

/** The explore decisions of a turn as [action, node, next node]. */
function path(output: AgentOutput): [ExploreAction, number, number][] {
  return events(output, 'explore-decision').map((event) => [event.action, event.nodeId, event.nextNodeId]);
}

function decision(output: AgentOutput, action: ExploreAction, nodeId: number): EventOf<'explore-decision'> {
  const found = events(output, 'explore-decision').find(
    (event) => event.action === action && event.nodeId === nodeId,
  );
  if (!found) throw new Error(`no ${action} decision on node ${nodeId}: ${JSON.stringify(path(output))}`);
  return found;
}

function texts(output: AgentOutput): (string | null)[] {
  return output.messages.map((message) => message.content);
}

function executed(output: AgentOutput): number[] {
  return events(output, 'step-start').flatMap((event) => (event.step === 'execute' ? [event.nodeId] : []));
}

const SWITCH = 30;

/** The shop tree with a blocking switch (30, 'account') over 31 'password' and 32 'email change'. */
function switchTree(before: BeforeCallback): Tree {
  return shopTree({
    extra: [
      { id: SWITCH, type: 'switch', parent: AGENT, chunks: ['account'], isBlocking: true, before },
      emit(31, SWITCH, ['password'], 'Reset link sent.'),
      emit(32, SWITCH, ['email change'], 'Email changed.'),
    ],
  });
}

describe('explore: descent', () => {
  it('descends from the primary agent to the child whose subtree holds the best chunk, and stops on a leaf', async () => {
    const { agent } = agentFor(shopTree(), { 'where is my parcel': { tracking: 0.9, greeting: 0.3 } });
    const output = await agent.send('s', 'where is my parcel');
    expect(path(output)).toEqual([
      ['descend', AGENT, ORDERS],
      ['descend', ORDERS, TRACK],
      ['leaf', TRACK, TRACK],
    ]);
    const first = decision(output, 'descend', AGENT);
    expect(first.moved).toBe(false);
    expect(first.threshold).toBe(0.25);
    expect(first.best).toMatchObject({ chunkId: '21:0', text: 'tracking', nodeId: TRACK, childId: ORDERS });
    expect(first.best!.similarity).toBeCloseTo(0.9, 5);
    const leaf = decision(output, 'leaf', TRACK);
    expect(leaf).toMatchObject({ moved: true, best: null, threshold: null });
    expect(output.status).toBe('answered');
    expect(texts(output)).toEqual(['Your parcel is on its way.']);
    expect(output.nodeId).toBe(TRACK);
    expect(events(output, 'fail-counter')).toEqual([]);
  });

  it("takes the best chunk among the node's subtree, never the node's own chunks", async () => {
    const { agent } = agentFor(shopTree(), {
      'my order, cancel it': { orders: 0.8, cancelling: 0.4, tracking: 0.3 },
    });
    const output = await agent.send('s', 'my order, cancel it');
    expect(path(output)).toEqual([
      ['descend', AGENT, ORDERS],
      ['descend', ORDERS, CANCEL],
      ['leaf', CANCEL, CANCEL],
    ]);
    // At the agent, 'orders' (held by node 20 itself) is in the agent's subtree and wins.
    expect(decision(output, 'descend', AGENT).best).toMatchObject({
      text: 'orders',
      nodeId: ORDERS,
      childId: ORDERS,
    });
    // At node 20 its own 'orders' chunk no longer counts: 'cancelling' is the best.
    const atOrders = decision(output, 'descend', ORDERS).best!;
    expect(atOrders).toMatchObject({ text: 'cancelling', nodeId: CANCEL, childId: CANCEL });
    expect(atOrders.similarity).toBeCloseTo(0.4, 5);
    expect(texts(output)).toEqual(['Your order is cancelled.']);
  });

  it("ignores the agent's own chunks too", async () => {
    const tree = shopTree({ agent: { chunks: ['assistant'] } });
    const { agent } = agentFor(tree, { 'hey assistant': { assistant: 1 } });
    const output = await agent.send('s', 'hey assistant');
    expect(path(output)).toEqual([['below-threshold', AGENT, AGENT]]);
    expect(decision(output, 'below-threshold', AGENT).best!.nodeId).not.toBe(AGENT);
    expect(output.status).toBe('no-match');
  });

  it.each([
    { threshold: 0.5, reached: ORDERS, action: 'below-threshold' as const, text: 'Which order?' },
    { threshold: 0.4999, reached: TRACK, action: 'descend' as const, text: 'Your parcel is on its way.' },
  ])(
    'moves only for a similarity strictly above the threshold (0.5 vs threshold $threshold)',
    async ({ threshold, reached, action, text }) => {
      const tree = shopTree({ orders: { similarityThreshold: threshold } });
      const { agent } = agentFor(tree, { 'tracking, maybe': { tracking: 0.5 } });
      const output = await agent.send('s', 'tracking, maybe');
      const atOrders = decision(output, action, ORDERS);
      expect(atOrders.best!.similarity).toBe(0.5);
      expect(atOrders.threshold).toBe(threshold);
      expect(atOrders.nextNodeId).toBe(reached);
      expect(output.nodeId).toBe(reached);
      expect(texts(output)).toEqual([text]);
    },
  );

  it('never lets a chunk-less child take a descent meant for its sibling', async () => {
    const { agent } = agentFor(shopTree(), { 'about orders': { orders: 0.9 } });
    const output = await agent.send('s', 'about orders');
    expect(decision(output, 'descend', AGENT).nextNodeId).toBe(ORDERS);
    expect(executed(output)).not.toContain(SORRY);
  });
});

describe('explore: stopping below the threshold', () => {
  it('stops on a node reached by descent when nothing below it is above the threshold', async () => {
    const { agent } = agentFor(shopTree(), { 'about my order': { orders: 0.9 } });
    const output = await agent.send('s', 'about my order');
    expect(path(output)).toEqual([
      ['descend', AGENT, ORDERS],
      ['below-threshold', ORDERS, ORDERS],
    ]);
    expect(decision(output, 'below-threshold', ORDERS)).toMatchObject({ moved: true, threshold: 0.25 });
    expect(texts(output)).toEqual(['Which order?']);
    expect(output.nodeId).toBe(ORDERS);
    expect(events(output, 'fail-counter')).toEqual([]);
    expect(events(output, 'blacklist-add')).toEqual([]);
  });

  it('stops at the first position when that node is not the last executed one', async () => {
    // The greeting's after sends exploration to node 20 (moved = false, but 20 is not the last executed).
    const tree = shopTree({ greet: { after: () => ({ nodeTarget: ORDERS }) } });
    const { agent } = agentFor(tree, { hi: { greeting: 1 }, 'nothing in particular': {} });
    await agent.send('s', 'hi');
    const output = await agent.send('s', 'nothing in particular');
    expect(path(output)).toEqual([['below-threshold', ORDERS, ORDERS]]);
    expect(decision(output, 'below-threshold', ORDERS).moved).toBe(false);
    expect(texts(output)).toEqual(['Which order?']);
    expect(events(output, 'fail-counter')).toEqual([]);
    expect(events(output, 'blacklist-add')).toEqual([]);
  });
});

describe('explore: blocking nodes', () => {
  it('stops on a blocking node reached after moving, and skips the check where exploration starts', async () => {
    const tree = shopTree({ orders: { isBlocking: true } });
    const { agent } = agentFor(tree, {
      'track my order': { tracking: 0.9 },
      'the tracking one': { tracking: 0.8 },
    });

    const first = await agent.send('s', 'track my order');
    expect(path(first)).toEqual([
      ['descend', AGENT, ORDERS],
      ['blocking', ORDERS, ORDERS],
    ]);
    expect(decision(first, 'blocking', ORDERS)).toMatchObject({ moved: true, best: null, threshold: null });
    expect(texts(first)).toEqual(['Which order?']);
    expect(first.nodeId).toBe(ORDERS);

    const second = await agent.send('s', 'the tracking one');
    expect(path(second)).toEqual([
      ['descend', ORDERS, TRACK],
      ['leaf', TRACK, TRACK],
    ]);
    expect(decision(second, 'descend', ORDERS).moved).toBe(false);
    expect(texts(second)).toEqual(['Your parcel is on its way.']);
  });

  it('skips the check at the first position even when that node is not the last executed one', async () => {
    const tree = shopTree({ orders: { isBlocking: true }, greet: { after: () => ({ nodeTarget: ORDERS }) } });
    const { agent } = agentFor(tree, { hi: { greeting: 1 }, 'cancel it': { cancelling: 0.9 } });
    await agent.send('s', 'hi');
    const output = await agent.send('s', 'cancel it');
    expect(path(output)).toEqual([
      ['descend', ORDERS, CANCEL],
      ['leaf', CANCEL, CANCEL],
    ]);
  });

  it('stops on a blocking anchor reached by climbing', async () => {
    const tree = shopTree({ orders: { isBlocking: true, isAnchor: true } });
    const { agent } = agentFor(tree, {
      'where is it': { tracking: 0.9 },
      'and the other one?': { cancelling: 0.9 },
    });
    await agent.send('s', 'where is it');
    // 'where is it' stops on the blocking node 20 first; answer from there.
    const tracked = await agent.send('s', 'where is it');
    expect(tracked.nodeId).toBe(TRACK);
    const output = await agent.send('s', 'and the other one?');
    expect(path(output)).toEqual([
      ['leaf-climb', TRACK, ORDERS],
      ['blocking', ORDERS, ORDERS],
    ]);
    expect(texts(output)).toEqual(['Which order?']);
  });
});

describe('explore: leaves', () => {
  it('climbs from the leaf just executed to the agent (fail counter +1, no blacklist) and may run it again', async () => {
    const { agent } = agentFor(shopTree(), { hi: { greeting: 1 }, 'hello again': { greeting: 0.9 } });
    const first = await agent.send('s', 'hi');
    expect(path(first)).toEqual([
      ['descend', AGENT, GREET],
      ['leaf', GREET, GREET],
    ]);

    const second = await agent.send('s', 'hello again');
    expect(path(second)).toEqual([
      ['leaf-climb', GREET, AGENT],
      ['descend', AGENT, GREET],
      ['leaf', GREET, GREET],
    ]);
    expect(decision(second, 'leaf-climb', GREET)).toMatchObject({
      moved: false,
      best: null,
      threshold: null,
    });
    expect(decision(second, 'descend', AGENT).moved).toBe(true);
    expect(events(second, 'fail-counter')).toEqual([
      { type: 'fail-counter', value: 1, nodeId: GREET, reason: 'leaf' },
    ]);
    expect(events(second, 'blacklist-add')).toEqual([]);
    expect(texts(second)).toEqual(['Hi!']);
    expect(second.nodeId).toBe(GREET);
    expect(second.status).toBe('answered');
  });

  it('keeps counting leaf climbs across interactions', async () => {
    const { agent } = agentFor(shopTree(), {
      hi: { greeting: 1 },
      'hello again': { greeting: 0.9 },
      'where is my parcel': { tracking: 0.9 },
    });
    await agent.send('s', 'hi');
    await agent.send('s', 'hello again');
    const third = await agent.send('s', 'where is my parcel');
    expect(path(third)).toEqual([
      ['leaf-climb', GREET, AGENT],
      ['descend', AGENT, ORDERS],
      ['descend', ORDERS, TRACK],
      ['leaf', TRACK, TRACK],
    ]);
    expect(events(third, 'fail-counter')).toEqual([
      { type: 'fail-counter', value: 2, nodeId: GREET, reason: 'leaf' },
    ]);
    expect((await agent.sessionStore.load('s'))!.failCounter).toBe(2);
  });

  it('climbs from a leaf to its nearest isAnchor ancestor', async () => {
    const tree = shopTree({ orders: { isAnchor: true } });
    const { agent } = agentFor(tree, {
      'where is my parcel': { tracking: 0.9 },
      'cancel it instead': { cancelling: 0.9 },
    });
    await agent.send('s', 'where is my parcel');
    const output = await agent.send('s', 'cancel it instead');
    expect(path(output)).toEqual([
      ['leaf-climb', TRACK, ORDERS],
      ['descend', ORDERS, CANCEL],
      ['leaf', CANCEL, CANCEL],
    ]);
    expect(decision(output, 'descend', ORDERS).moved).toBe(true);
    expect(events(output, 'fail-counter')).toMatchObject([{ value: 1, nodeId: TRACK, reason: 'leaf' }]);
    expect(events(output, 'blacklist-add')).toEqual([]);
    expect(texts(output)).toEqual(['Your order is cancelled.']);
  });

  it('does not blacklist the leaf it climbs from: the anchor may lead back to it', async () => {
    const tree = shopTree({ orders: { isAnchor: true } });
    const { agent } = agentFor(tree, {
      'where is my parcel': { tracking: 0.9 },
      'where is it now': { tracking: 0.8 },
    });
    await agent.send('s', 'where is my parcel');
    const output = await agent.send('s', 'where is it now');
    expect(path(output)).toEqual([
      ['leaf-climb', TRACK, ORDERS],
      ['descend', ORDERS, TRACK],
      ['leaf', TRACK, TRACK],
    ]);
    expect(texts(output)).toEqual(['Your parcel is on its way.']);
  });
});

describe('explore: climbing from the node just executed', () => {
  it('counts a failure, blacklists the node with its subtree and climbs to the agent as moved', async () => {
    const tree = shopTree({ orders: { similarityThreshold: 0.6 } });
    const { agent } = agentFor(tree, {
      'about my order': { orders: 0.9 },
      'tracking, or just hi': { tracking: 0.5, greeting: 0.3 },
    });
    const first = await agent.send('s', 'about my order');
    expect(first.nodeId).toBe(ORDERS);

    const output = await agent.send('s', 'tracking, or just hi');
    expect(path(output)).toEqual([
      ['climb', ORDERS, AGENT],
      ['descend', AGENT, GREET],
      ['leaf', GREET, GREET],
    ]);
    const climb = decision(output, 'climb', ORDERS);
    expect(climb).toMatchObject({ moved: false, threshold: 0.6 });
    expect(climb.best).toMatchObject({ text: 'tracking', childId: TRACK });
    expect(events(output, 'fail-counter')).toEqual([
      { type: 'fail-counter', value: 1, nodeId: ORDERS, reason: 'below-threshold' },
    ]);
    expect(events(output, 'blacklist-add')).toEqual([
      { type: 'blacklist-add', kind: 'node', ids: [ORDERS], reason: 'climb' },
    ]);
    // 'tracking' (0.5, in node 20's subtree) would win at the agent; the blacklist hides the whole subtree.
    const atAgent = decision(output, 'descend', AGENT);
    expect(atAgent.moved).toBe(true);
    expect(atAgent.best).toMatchObject({ text: 'greeting', nodeId: GREET });
    expect(atAgent.best!.similarity).toBeCloseTo(0.3, 5);
    expect(texts(output)).toEqual(['Hi!']);
    expect(output.nodeId).toBe(GREET);

    const order = output.trace
      .filter((event) => ['fail-counter', 'blacklist-add', 'explore-decision'].includes(event.type))
      .map((event) => event.type);
    expect(order.slice(0, 3)).toEqual(['fail-counter', 'blacklist-add', 'explore-decision']);
  });

  it('climbs to the nearest isAnchor ancestor, not to the agent', async () => {
    const tree = shopTree({
      orders: { isAnchor: true },
      extra: [
        emit(211, TRACK, ['by number'], 'Your order number?'),
        emit(212, TRACK, ['by email'], 'Your email?'),
      ],
    });
    const { agent } = agentFor(tree, {
      'track my parcel': { tracking: 0.9 },
      'cancel it instead': { cancelling: 0.9 },
    });
    const first = await agent.send('s', 'track my parcel');
    expect(path(first)).toEqual([
      ['descend', AGENT, ORDERS],
      ['descend', ORDERS, TRACK],
      ['below-threshold', TRACK, TRACK],
    ]);

    const output = await agent.send('s', 'cancel it instead');
    expect(path(output)).toEqual([
      ['climb', TRACK, ORDERS],
      ['descend', ORDERS, CANCEL],
      ['leaf', CANCEL, CANCEL],
    ]);
    expect(events(output, 'blacklist-add')).toEqual([
      { type: 'blacklist-add', kind: 'node', ids: [TRACK], reason: 'climb' },
    ]);
    expect(events(output, 'fail-counter')).toMatchObject([
      { value: 1, nodeId: TRACK, reason: 'below-threshold' },
    ]);
    expect(texts(output)).toEqual(['Your order is cancelled.']);
  });

  it('runs a node reached by descent even if it is the last executed one', async () => {
    // After node 20, exploration restarts from the agent (not moved); it descends back into 20.
    const tree = shopTree({ orders: { after: () => ({ nodeTarget: AGENT }) } });
    const { agent } = agentFor(tree, {
      'about my order': { orders: 0.9 },
      'my order again': { orders: 0.8 },
    });
    await agent.send('s', 'about my order');
    const output = await agent.send('s', 'my order again');
    expect(path(output)).toEqual([
      ['descend', AGENT, ORDERS],
      ['below-threshold', ORDERS, ORDERS],
    ]);
    expect(decision(output, 'below-threshold', ORDERS).moved).toBe(true);
    expect(executed(output)).toEqual([ORDERS]);
    expect(texts(output)).toEqual(['Which order?']);
    expect(events(output, 'fail-counter')).toEqual([]);
    expect(events(output, 'blacklist-add')).toEqual([]);
  });

  it('does the same on outcome FAILURE (reach_anchor): counts, blacklists and explores the anchor as moved', async () => {
    const tree = shopTree({ orders: { isAnchor: true }, track: { after: () => ({ outcome: 'failure' }) } });
    const { agent } = agentFor(tree, {
      'where is my parcel': { tracking: 0.9 },
      'still tracking, or cancel': { tracking: 0.8, cancelling: 0.5 },
    });
    await agent.send('s', 'where is my parcel');
    const output = await agent.send('s', 'still tracking, or cancel');
    expect(events(output, 'fail-counter')).toMatchObject([
      { value: 1, nodeId: TRACK, reason: 'failure-outcome' },
    ]);
    expect(events(output, 'blacklist-add')).toEqual([
      { type: 'blacklist-add', kind: 'node', ids: [TRACK], reason: 'failure-outcome' },
    ]);
    expect(path(output)).toEqual([
      ['descend', ORDERS, CANCEL],
      ['leaf', CANCEL, CANCEL],
    ]);
    expect(decision(output, 'descend', ORDERS).moved).toBe(true);
    expect(texts(output)).toEqual(['Your order is cancelled.']);
  });
});

describe('explore: no match', () => {
  it("ends the turn with status 'no-match' when exploration ends on the agent", async () => {
    const { agent } = agentFor(shopTree(), { 'blah blah': {} });
    const output = await agent.send('s', 'blah blah');
    expect(path(output)).toEqual([['below-threshold', AGENT, AGENT]]);
    expect(output.status).toBe('no-match');
    expect(output.messages).toEqual([]);
    expect(output.nodeId).toBeNull();
    expect(events(output, 'no-match')).toEqual([{ type: 'no-match', agentId: AGENT }]);
  });

  it('still counts the climb that led to the agent', async () => {
    const { agent } = agentFor(shopTree(), { hi: { greeting: 1 }, 'blah blah': {} });
    await agent.send('s', 'hi');
    const output = await agent.send('s', 'blah blah');
    expect(path(output)).toEqual([
      ['leaf-climb', GREET, AGENT],
      ['below-threshold', AGENT, AGENT],
    ]);
    expect(decision(output, 'below-threshold', AGENT).moved).toBe(true);
    expect(output.status).toBe('no-match');
    expect(output.messages).toEqual([]);
    expect(output.nodeId).toBe(GREET);
    expect(events(output, 'fail-counter')).toMatchObject([{ value: 1, nodeId: GREET, reason: 'leaf' }]);
    expect((await agent.sessionStore.load('s'))!.failCounter).toBe(1);
  });

  it("runs the agent's fallback with special.noMatch, which may target an 'I did not understand' node", async () => {
    const seen: FallbackSpecial[] = [];
    const tree = shopTree({
      agent: {
        fallback: (_self, _context, special) => {
          seen.push(special);
          return { nodeTarget: SORRY };
        },
      },
    });
    const { agent } = agentFor(tree, { 'blah blah': {} });
    const output = await agent.send('s', 'blah blah');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ noMatch: true, nodeId: AGENT, error: { code: 'NO_MATCH' } });
    expect(output.status).toBe('fallback-no-match');
    expect(texts(output)).toEqual(['Sorry, I did not understand.']);
    expect(output.nodeId).toBe(SORRY);
    expect(events(output, 'fallback')).toMatchObject([
      { agentId: AGENT, nodeTarget: SORRY, error: { code: 'NO_MATCH' } },
    ]);
    expect(events(output, 'no-match')).toEqual([]);
  });
});

describe('explore: constraints set from callbacks', () => {
  it('excludes a blacklisted node with its subtree', async () => {
    const tree = shopTree({
      root: {
        beforeRun: (_self, context) => context.exploreStrategy.constraints.blacklist.add(ORDERS, 'node'),
      },
    });
    const { agent } = agentFor(tree, { 'tracking, or hi': { tracking: 0.9, greeting: 0.3 } });
    const output = await agent.send('s', 'tracking, or hi');
    expect(path(output)).toEqual([
      ['descend', AGENT, GREET],
      ['leaf', GREET, GREET],
    ]);
    expect(texts(output)).toEqual(['Hi!']);
  });

  it('excludes a blacklisted chunk alone: other chunks of the same node still count', async () => {
    const tree = shopTree({
      root: {
        beforeRun: (_self, context) =>
          context.exploreStrategy.constraints.blacklist.add('c-tracking', 'chunk'),
      },
      track: { chunks: [{ id: 'c-tracking', text: 'tracking' }, 'parcel'] },
    });
    const { agent } = agentFor(tree, { 'parcel tracking': { tracking: 0.7, parcel: 0.5, cancelling: 0.4 } });
    const output = await agent.send('s', 'parcel tracking');
    expect(path(output)).toEqual([
      ['descend', AGENT, ORDERS],
      ['descend', ORDERS, TRACK],
      ['leaf', TRACK, TRACK],
    ]);
    const best = decision(output, 'descend', ORDERS).best!;
    expect(best).toMatchObject({ chunkId: '21:1', text: 'parcel', nodeId: TRACK });
    expect(best.similarity).toBeCloseTo(0.5, 5);
  });

  it("applies a Qdrant filter on each chunk's extra", async () => {
    const filtered = shopTree({
      root: {
        beforeRun: (_self, context) => {
          context.exploreStrategy.constraints.filter = { must: [{ key: 'lang', match: { value: 'it' } }] };
        },
      },
      greet: { chunks: [{ text: 'greeting', extra: { lang: 'en' } }] },
      extra: [emit(11, AGENT, [{ text: 'saluto', extra: { lang: 'it' } }], 'Ciao!')],
    });
    const messages = { 'hello, ciao': { greeting: 0.7, saluto: 0.4, orders: 0.5 } };
    const output = await agentFor(filtered, messages).agent.send('s', 'hello, ciao');
    expect(path(output)).toEqual([
      ['descend', AGENT, 11],
      ['leaf', 11, 11],
    ]);
    expect(decision(output, 'descend', AGENT).best).toMatchObject({ text: 'saluto', nodeId: 11 });
    expect(texts(output)).toEqual(['Ciao!']);

    // The same tree without the filter goes to the greeting.
    const unfiltered = shopTree({
      greet: { chunks: [{ text: 'greeting', extra: { lang: 'en' } }] },
      extra: [emit(11, AGENT, [{ text: 'saluto', extra: { lang: 'it' } }], 'Ciao!')],
    });
    expect(texts(await agentFor(unfiltered, messages).agent.send('s', 'hello, ciao'))).toEqual(['Hi!']);
  });

  it('applies constraints an after callback sets before exploring from its node', async () => {
    const tree = shopTree({
      orders: {
        after: (_self, context) => {
          context.exploreStrategy.constraints.blacklist.add(TRACK, 'node');
        },
      },
    });
    const { agent } = agentFor(tree, {
      'about my order': { orders: 0.9 },
      'tracking or cancel': { tracking: 0.9, cancelling: 0.4 },
    });
    await agent.send('s', 'about my order');
    const output = await agent.send('s', 'tracking or cancel');
    expect(path(output)).toEqual([
      ['descend', ORDERS, CANCEL],
      ['leaf', CANCEL, CANCEL],
    ]);
  });
});

describe('explore: keep', () => {
  const hidden = { must_not: [{ key: 'hidden', match: { value: true } }] };

  /** On the first interaction beforeRun blacklists node 20 and sets a filter; later it records what it sees. */
  const constrainOnFirstTurn = (keep: boolean, seen: unknown[]) =>
    shopTree({
      root: {
        beforeRun: (_self, context, special) => {
          const { constraints } = context.exploreStrategy;
          if (!special.isFirstInteraction) {
            seen.push(structuredClone(constraints.toJSON()));
            return;
          }
          constraints.keep = keep;
          constraints.blacklist.add(ORDERS, 'node');
          constraints.filter = hidden;
        },
      },
    });
  const messages = { 'tracking, or hi': { tracking: 0.9, greeting: 0.3 } };

  it('with keep false (default) clears blacklist and filter when the interaction ends', async () => {
    const seen: unknown[] = [];
    const { agent } = agentFor(constrainOnFirstTurn(false, seen), messages);
    const first = await agent.send('s', 'tracking, or hi');
    expect(path(first)).toEqual([
      ['descend', AGENT, GREET],
      ['leaf', GREET, GREET],
    ]);
    expect((await agent.sessionStore.load('s'))!.constraints).toBeNull();

    const second = await agent.send('s', 'tracking, or hi');
    expect(seen).toEqual([{ blacklist: { nodes: [], chunks: [] }, filter: null, keep: false }]);
    expect(path(second)).toEqual([
      ['leaf-climb', GREET, AGENT],
      ['descend', AGENT, ORDERS],
      ['descend', ORDERS, TRACK],
      ['leaf', TRACK, TRACK],
    ]);
  });

  it('with keep true persists blacklist and filter in the session', async () => {
    const seen: unknown[] = [];
    const { agent } = agentFor(constrainOnFirstTurn(true, seen), messages);
    const first = await agent.send('s', 'tracking, or hi');
    expect(first.nodeId).toBe(GREET);
    const stored = { blacklist: { nodes: [ORDERS], chunks: [] }, filter: hidden, keep: true };
    expect((await agent.sessionStore.load('s'))!.constraints).toEqual(stored);

    const second = await agent.send('s', 'tracking, or hi');
    expect(seen).toEqual([stored]);
    expect(path(second)).toEqual([
      ['leaf-climb', GREET, AGENT],
      ['descend', AGENT, GREET],
      ['leaf', GREET, GREET],
    ]);
    expect(decision(second, 'descend', AGENT).best).toMatchObject({ text: 'greeting' });
    expect((await agent.sessionStore.load('s'))!.constraints).toEqual(stored);
  });

  const climbMessages = {
    'about my order': { orders: 0.9 },
    'tracking, or just hi': { tracking: 0.5, greeting: 0.3 },
    'my order again': { orders: 0.9, greeting: 0.3 },
  };

  it('with keep false the automatic blacklist of a climb lasts only for its interaction', async () => {
    const tree = shopTree({ orders: { similarityThreshold: 0.6 } });
    const { agent } = agentFor(tree, climbMessages);
    await agent.send('s', 'about my order');
    const climbed = await agent.send('s', 'tracking, or just hi');
    expect(path(climbed)[0]).toEqual(['climb', ORDERS, AGENT]);
    expect((await agent.sessionStore.load('s'))!.constraints).toBeNull();
    const output = await agent.send('s', 'my order again');
    expect(path(output)).toEqual([
      ['leaf-climb', GREET, AGENT],
      ['descend', AGENT, ORDERS],
      ['below-threshold', ORDERS, ORDERS],
    ]);
  });

  it('with keep true the automatic blacklist of a climb persists too', async () => {
    const tree = shopTree({
      root: {
        beforeRun: (_self, context) => {
          context.exploreStrategy.constraints.keep = true;
        },
      },
      orders: { similarityThreshold: 0.6 },
    });
    const { agent } = agentFor(tree, climbMessages);
    await agent.send('s', 'about my order');
    const climbed = await agent.send('s', 'tracking, or just hi');
    expect(path(climbed)[0]).toEqual(['climb', ORDERS, AGENT]);
    expect((await agent.sessionStore.load('s'))!.constraints).toEqual({
      blacklist: { nodes: [ORDERS], chunks: [] },
      filter: null,
      keep: true,
    });
    const output = await agent.send('s', 'my order again');
    expect(path(output)).toEqual([
      ['leaf-climb', GREET, AGENT],
      ['descend', AGENT, GREET],
      ['leaf', GREET, GREET],
    ]);
  });
});

describe('explore: switch nodes', () => {
  it('continues from the switch with the direction its before sets', async () => {
    const tree = switchTree((_self, context) => {
      context.exploreStrategy.direction = 'reset my password';
    });
    const { agent, embedder: exact } = agentFor(tree, {
      'help with my account': { account: 0.9, 'email change': 0.2 },
      'reset my password': { password: 0.9 },
    });
    const output = await agent.send('s', 'help with my account');
    expect(path(output)).toEqual([
      ['descend', AGENT, SWITCH],
      ['blocking', SWITCH, SWITCH],
      ['descend', SWITCH, 31],
      ['leaf', 31, 31],
    ]);
    expect(events(output, 'explore-end').map((event) => event.direction)).toEqual([
      'help with my account',
      'reset my password',
    ]);
    expect(decision(output, 'descend', SWITCH).best).toMatchObject({ text: 'password' });
    expect(executed(output)).toEqual([SWITCH, 31]);
    expect(texts(output)).toEqual(['Reset link sent.']);
    expect(exact.calls.slice(1)).toEqual([['help with my account'], ['reset my password']]);
  });

  it('continues from the switch with the constraints its before sets', async () => {
    const tree = switchTree((_self, context) => {
      context.exploreStrategy.constraints.blacklist.add(31, 'node');
    });
    const { agent } = agentFor(tree, {
      'account: password or email': { account: 0.8, password: 0.45, 'email change': 0.3 },
    });
    const output = await agent.send('s', 'account: password or email');
    expect(path(output)).toEqual([
      ['descend', AGENT, SWITCH],
      ['blocking', SWITCH, SWITCH],
      ['descend', SWITCH, 32],
      ['leaf', 32, 32],
    ]);
    expect(texts(output)).toEqual(['Email changed.']);
  });
});

describe('explore: embeddings', () => {
  const chunkTexts = ['greeting', 'orders', 'tracking', 'cancelling'];

  it('embeds the chunks once per load and the direction once per interaction', async () => {
    const { agent, embedder: exact } = agentFor(shopTree(), {
      'where is my parcel': { tracking: 0.9 },
      'cancel it instead': { cancelling: 0.9 },
    });
    await agent.ready();
    expect(exact.calls).toHaveLength(1);
    expect([...exact.calls[0]!].sort()).toEqual([...chunkTexts].sort());

    await agent.send('s', 'where is my parcel');
    expect(exact.calls.slice(1)).toEqual([['where is my parcel']]);

    // A climb and two descents: similarities are needed at three nodes, the direction is embedded once.
    const output = await agent.send('s', 'cancel it instead');
    expect(path(output)).toHaveLength(4);
    expect(exact.calls.slice(1)).toEqual([['where is my parcel'], ['cancel it instead']]);
  });

  it('embeds the direction once even when the turn explores several times', async () => {
    // Explore stops on the blocking switch, the switch runs, then exploration continues from it.
    const tree = switchTree(() => {});
    const { agent, embedder: exact } = agentFor(tree, {
      'account password': { account: 0.8, password: 0.5 },
    });
    await agent.ready();
    const output = await agent.send('s', 'account password');
    expect(events(output, 'explore-end')).toHaveLength(2);
    expect(path(output)).toEqual([
      ['descend', AGENT, SWITCH],
      ['blocking', SWITCH, SWITCH],
      ['descend', SWITCH, 31],
      ['leaf', 31, 31],
    ]);
    expect(exact.calls.slice(1)).toEqual([['account password']]);
  });

  it('does not embed the chunks again when the tree is reloaded (cached by model and text)', async () => {
    const { agent, embedder: exact } = agentFor(shopTree(), {});
    await agent.ready();
    await agent.setTree(shopTree());
    expect(exact.calls).toHaveLength(1);
    await agent.setTree(shopTree({ track: { chunks: ['tracking', 'parcel'] } }));
    expect(exact.calls.slice(1)).toEqual([['parcel']]);
  });
});
