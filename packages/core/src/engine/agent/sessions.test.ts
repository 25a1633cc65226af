import { describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../adapter/index.js';
import {
  type AfterRunSpecial,
  type AgentEvent,
  type AgentOutput,
  defineTree,
  type NodeDefinition,
  type Tree,
  TreeAgent,
} from '../../index.js';
import { ExactEmbedder } from '../../test/index.js';
import { rejection } from '../../test/rejection.js';
import {
  executed,
  say,
  sleep,
  type TestAgentOptions,
  testAgent,
} from '../../test-support/engine-fixtures.js';

const VECTORS: Record<string, number[]> = {
  alpha: [1, 0, 0, 0],
  'alpha one': [1, 0, 0, 0],
  'alpha two': [1, 0, 0, 0],
  beta: [0, 1, 0, 0],
  gamma: [0, 0, 1, 0],
  delta: [0, 0, 0, 1],
};

const embedder = () => new ExactEmbedder({ vectors: VECTORS });

const makeAgent = (nodes: NodeDefinition[], options: TestAgentOptions = {}) =>
  testAgent(nodes, { embedder: embedder(), ...options });

type BeforeFn = NonNullable<Extract<NodeDefinition, { type: 'emit' }>['before']>;

/** 3 (alpha) and 4 (beta) are emits; `before3`/`before4` are their before callbacks. */
function twoEmits(before3?: BeforeFn, before4?: BeforeFn, root: Partial<NodeDefinition> = {}) {
  return makeAgent([
    { id: 1, type: 'root', ...(root as object) },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    { id: 3, type: 'emit', parent: 2, chunks: ['alpha'], before: before3, emit: say('A') },
    { id: 4, type: 'emit', parent: 2, chunks: ['beta'], before: before4, emit: say('B') },
  ]);
}

/** A record after a failed turn: the same, but with no position (the next message starts from the primary agent). */
function positionCleared(record: SessionRecord): SessionRecord {
  return {
    ...record,
    version: record.version + 1,
    lastNodeId: null,
    agentPositions: {},
    pendingMessage: null,
    constraints: null,
    updatedAt: expect.any(String),
  };
}

describe('atomicity', () => {
  it('a throwing callback leaves state, history and fail counter unchanged, and clears the position', async () => {
    const seen: unknown[] = [];
    const agent = twoEmits(
      (_self, context) => {
        seen.push({
          a: context.sessionState.get('a'),
          b: context.sessionState.get('b'),
          failCounter: context.failCounter,
          turn: context.turn,
        });
        context.sessionState.set('a', 1);
      },
      (_self, context) => {
        context.sessionState.set('a', 2);
        context.sessionState.set('b', 'x');
        throw new Error('fails after changing the state');
      },
    );
    await agent.send('s', 'alpha');
    const record = await agent.sessionStore.load('s');
    const history = await agent.history('s');
    expect(record).toMatchObject({ version: 1, turn: 1, lastNodeId: 3, failCounter: 0, state: { a: 1 } });

    // The turn climbs from node 3 (fail counter +1), reaches node 4 and its before throws.
    const error = await rejection(agent.send('s', 'beta'));
    expect(error.code).toBe('CALLBACK_ERROR');
    // Nothing of the failed turn is saved; the position is cleared (the recovery policy), so the
    // next message starts from the primary agent instead of failing the same way again.
    expect(await agent.sessionStore.load('s')).toEqual(positionCleared(record!));
    expect(await agent.history('s')).toEqual(history);

    const output = await agent.send('s', 'alpha');
    expect(output.turn).toBe(2);
    expect(executed(output)).toEqual([3]);
    expect(seen).toEqual([
      { a: undefined, b: undefined, failCounter: 0, turn: 1 },
      // The failed turn's climb was not saved, and this turn starts from the primary agent.
      { a: 1, b: undefined, failCounter: 0, turn: 2 },
    ]);
    expect(await agent.history('s')).toHaveLength(4);
  });

  it.each([
    ['a function', () => () => 1],
    ['a class instance without serialize()', () => new (class Thing {})()],
    ['a bigint', () => 10n],
    ['NaN', () => Number.NaN],
    ['a nested function', () => ({ deep: [{ fn: () => 1 }] })],
  ])(
    'a non-serialisable state value (%s) fails the turn with SESSION_STATE and saves nothing',
    async (_label, make) => {
      const agent = twoEmits(
        (_self, context) => context.sessionState.set('ok', 'first'),
        (_self, context) => {
          context.sessionState.set('ok', 'second');
          context.sessionState.set('bad', make());
        },
      );
      await agent.send('s', 'alpha');
      const record = await agent.sessionStore.load('s');
      const history = await agent.history('s');
      const error = await rejection(agent.send('s', 'beta'));
      expect(error.code).toBe('SESSION_STATE');
      expect(String(error.details.key)).toMatch(/^bad/);
      expect(error.message).toContain('bad');
      expect(await agent.sessionStore.load('s')).toEqual(positionCleared(record!));
      expect(await agent.history('s')).toEqual(history);
      expect((await agent.sessionStore.load('s'))!.state).toEqual({ ok: 'first' });
    },
  );

  it('a failed first interaction leaves no session at all', async () => {
    const agent = twoEmits(() => {
      throw new Error('nope');
    });
    await rejection(agent.send('s', 'alpha'));
    expect(await agent.sessionStore.load('s')).toBeNull();
    expect(await agent.history('s')).toEqual([]);
    const output = await agent.send('s', 'beta');
    expect(output.turn).toBe(1);
  });
});

describe('session state across interactions', () => {
  it('later interactions see the serialised value; the same interaction sees the live value', async () => {
    class Counter {
      constructor(public n: number) {}
      serialize() {
        return { n: this.n, kind: 'counter' };
      }
    }
    const seen: unknown[] = [];
    const agent = twoEmits(
      (_self, context) => {
        const counter = new Counter(5);
        context.sessionState.set('counter', counter);
        context.sessionState.set('when', new Date('2024-01-02T03:04:05.000Z'));
        context.sessionState.set('plain', { list: [1, 'two', null, { three: true }] });
        context.sessionState.set('gone', 'soon');
        context.sessionState.set('gone', undefined);
      },
      (_self, context) => {
        seen.push({
          counter: context.sessionState.get('counter'),
          isInstance: context.sessionState.get('counter') instanceof Counter,
          when: context.sessionState.get('when'),
          plain: context.sessionState.get('plain'),
          gone: context.sessionState.has('gone'),
        });
        context.sessionState.clear();
        context.sessionState.set('after-clear', true);
      },
      {
        afterRun: (_self, context) => {
          const counter = context.sessionState.get('counter');
          if (counter) seen.push({ liveInAfterRun: counter instanceof Counter });
        },
      },
    );
    await agent.send('s', 'alpha');
    expect((await agent.sessionStore.load('s'))!.state).toEqual({
      counter: { n: 5, kind: 'counter' },
      when: '2024-01-02T03:04:05.000Z',
      plain: { list: [1, 'two', null, { three: true }] },
    });
    await agent.send('s', 'beta');
    expect(seen).toEqual([
      { liveInAfterRun: true },
      {
        counter: { n: 5, kind: 'counter' },
        isInstance: false,
        when: '2024-01-02T03:04:05.000Z',
        plain: { list: [1, 'two', null, { three: true }] },
        gone: false,
      },
    ]);
    expect((await agent.sessionStore.load('s'))!.state).toEqual({ 'after-clear': true });
  });

  it('a later mutation of the object passed to set() is what gets stored at the end', async () => {
    const agent = twoEmits((_self, context) => {
      const list: number[] = [];
      context.sessionState.set('list', list);
      list.push(1, 2);
    }, undefined);
    await agent.send('s', 'alpha');
    expect((await agent.sessionStore.load('s'))!.state).toEqual({ list: [1, 2] });
  });
});

describe('afterRun and metadata', () => {
  it('afterRun runs after the step loop with the output; serverMetadata goes out but is not persisted', async () => {
    const log: string[] = [];
    const outputs: AfterRunSpecial[] = [];
    const serverAtStart: unknown[] = [];
    const clientSeen: unknown[] = [];
    const agent = makeAgent([
      {
        id: 1,
        type: 'root',
        beforeRun: (_self, context) => {
          serverAtStart.push({ ...context.metadata.serverMetadata });
          clientSeen.push(context.metadata.clientMetadata);
          log.push('beforeRun');
        },
        afterRun: (_self, context, special) => {
          log.push('afterRun');
          outputs.push(special);
          context.metadata.serverMetadata.turnSeen = context.turn;
          context.metadata.serverMetadata.secret = 'server-only';
        },
      },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        emit: (_self, context) => {
          log.push('emit');
          context.metadata.serverMetadata.fromEmit = true;
          return say(`client says ${String(context.metadata.clientMetadata.user ?? 'nothing')}`);
        },
      },
    ]);
    const first = await agent.send('s', 'alpha', { clientMetadata: { user: 'ada', token: 'client-secret' } });
    expect(log).toEqual(['beforeRun', 'emit', 'afterRun']);
    expect(first.messages[0]!.content).toBe('client says ada');
    expect(first.serverMetadata).toEqual({ fromEmit: true, turnSeen: 1, secret: 'server-only' });
    expect(outputs[0]!.output).toMatchObject({ sessionId: 's', turn: 1, nodeId: 3, status: 'answered' });
    expect(outputs[0]!.output.messages.map((m) => m.content)).toEqual(['client says ada']);

    const record = await agent.sessionStore.load('s');
    expect(JSON.stringify(record)).not.toContain('server-only');
    expect(JSON.stringify(record)).not.toContain('client-secret');
    expect(JSON.stringify(await agent.history('s'))).not.toContain('server-only');

    const second = await agent.send('s', 'alpha');
    expect(serverAtStart).toEqual([{}, {}]);
    expect(clientSeen).toEqual([{ user: 'ada', token: 'client-secret' }, {}]);
    expect(second.messages[0]!.content).toBe('client says nothing');
  });

  it('a throwing afterRun fails the turn and saves nothing', async () => {
    const agent = twoEmits(undefined, undefined, {
      afterRun: () => {
        throw new Error('afterRun broke');
      },
    } as Partial<NodeDefinition>);
    const error = await rejection(agent.send('s', 'alpha'));
    expect(error.code).toBe('CALLBACK_ERROR');
    expect(error.callback).toBe('afterRun');
    expect(error.nodeId).toBe(1);
    expect(await agent.sessionStore.load('s')).toBeNull();
  });

  it("keeps an answer's sources and waitInteraction in the history, so a reloaded page shows them again", async () => {
    const sources = [{ title: 'Returns', url: 'https://shop.example/returns', content: 'Within 30 days.' }];
    const agent = makeAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      { id: 3, type: 'emit', parent: 2, chunks: ['alpha'], emit: { ...say('A'), sources } },
      { id: 4, type: 'emit', parent: 2, chunks: ['beta'], emit: { ...say('B'), waitInteraction: true } },
    ]);
    expect((await agent.send('s', 'alpha')).messages[0]!.sources).toEqual(sources);
    await agent.send('s', 'beta');
    const answers = (await agent.history('s')).filter((entry) => entry.role === 'assistant');
    expect(answers[0]!.sources).toEqual(sources);
    expect(answers[1]).not.toHaveProperty('sources');
    // And whether it waits for the user's answer (a reloaded page's message box says so).
    expect(answers[0]).not.toHaveProperty('waitInteraction');
    expect(answers[1]!.waitInteraction).toBe(true);
  });

  it('rejects invalid input with INVALID_INPUT', async () => {
    const agent = twoEmits();
    for (const [sessionId, message, options] of [
      ['', 'alpha', {}],
      ['x'.repeat(257), 'alpha', {}],
      ['s', 42, {}],
      ['s', 'alpha', { clientMetadata: [] }],
      ['s', 'alpha', { attachments: 'file' }],
      ['s', 'alpha', { selectedOption: 3 }],
      ['s', 'al\u0000pha', {}],
      ['s', '', { selectedOption: 'yes\u0000' }],
    ] as [string, string, object][]) {
      const error = await rejection(agent.send(sessionId, message, options));
      expect(error.code).toBe('INVALID_INPUT');
    }
    // Nothing was written: the same on every store (PostgreSQL cannot keep a NUL).
    expect(await agent.sessionStore.load('s')).toBeNull();
    expect((await rejection(agent.send('s', 'a\u0000'))).message).toMatch(/NUL character \(U\+0000\)/);
  });
});

describe('concurrency', () => {
  function slowAgent(log: string[]) {
    return makeAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        before: async (_self, context) => {
          log.push(`before ${context.input.original}`);
          await sleep(15);
        },
        emit: async (_self, context) => {
          await sleep(15);
          log.push(`emit ${context.input.original} turn ${context.turn}`);
          context.sessionState.set('count', (context.sessionState.get<number>('count') ?? 0) + 1);
          return say(context.input.original);
        },
      },
    ]);
  }

  it('two messages for the same session run one after the other', async () => {
    const log: string[] = [];
    const agent = slowAgent(log);
    const [one, two] = await Promise.all([agent.send('s', 'alpha one'), agent.send('s', 'alpha two')]);
    expect(log).toEqual([
      'before alpha one',
      'emit alpha one turn 1',
      'before alpha two',
      'emit alpha two turn 2',
    ]);
    expect(one.turn).toBe(1);
    expect(two.turn).toBe(2);
    const record = await agent.sessionStore.load('s');
    expect(record).toMatchObject({ version: 2, turn: 2, state: { count: 2 } });
    expect((await agent.history('s')).map((entry) => entry.content)).toEqual([
      'alpha one',
      'alpha one',
      'alpha two',
      'alpha two',
    ]);
  });

  it('a failed turn does not block the next one of the same session', async () => {
    let fail = true;
    const agent = twoEmits(() => {
      if (fail) {
        fail = false;
        throw new Error('first fails');
      }
    });
    const [first, second] = await Promise.allSettled([agent.send('s', 'alpha'), agent.send('s', 'alpha')]);
    expect(first.status).toBe('rejected');
    expect(second.status).toBe('fulfilled');
    expect((second as PromiseFulfilledResult<AgentOutput>).value.turn).toBe(1);
  });

  it('different sessions run concurrently', async () => {
    const log: string[] = [];
    const agent = slowAgent(log);
    const [one, two] = await Promise.all([agent.send('s1', 'alpha one'), agent.send('s2', 'alpha two')]);
    expect(log).toEqual([
      'before alpha one',
      'before alpha two',
      'emit alpha one turn 1',
      'emit alpha two turn 1',
    ]);
    expect(one.sessionId).toBe('s1');
    expect(two.sessionId).toBe('s2');
    expect(two.turn).toBe(1);
  });
});

describe('setTree', () => {
  const nodes = (withFour: boolean): NodeDefinition[] => [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    { id: 3, type: 'emit', parent: 2, chunks: ['alpha'], emit: say('A') },
    ...(withFour
      ? [{ id: 4, type: 'emit', parent: 2, chunks: ['beta'], emit: say('B') } as NodeDefinition]
      : []),
    { id: 5, type: 'emit', parent: 2, chunks: ['gamma'], emit: say('G') },
  ];

  it('a session whose last node was removed is reset and restarts at the primary agent', async () => {
    const agent = makeAgent(nodes(true));
    const first = await agent.send('s', 'beta');
    expect(first.nodeId).toBe(4);
    const smaller: Tree = defineTree({ nodes: nodes(false) });
    await agent.setTree(smaller);
    expect(agent.tree).toBe(smaller);
    const output = await agent.send('s', 'alpha');
    const reset = output.trace.filter((event) => event.type === 'session-reset');
    expect(reset).toEqual([{ type: 'session-reset', reason: expect.stringContaining('4'), lostNodeId: 4 }]);
    expect(output.trace.find((event) => event.type === 'explore-decision')).toMatchObject({
      nodeId: 2,
      moved: false,
      action: 'descend',
    });
    expect(executed(output)).toEqual([3]);
    // The session itself is kept.
    expect(output.turn).toBe(2);
    expect(await agent.history('s')).toHaveLength(4);
  });

  it('a session whose last node still exists resumes at its after in the new tree', async () => {
    const afters: string[] = [];
    const agent = makeAgent(nodes(true));
    await agent.send('s', 'alpha');
    const next = nodes(true).map((node) =>
      node.id === 3
        ? ({
            ...node,
            after: () => {
              afters.push('new after');
              return { nodeTarget: 5, step: 'before' };
            },
          } as NodeDefinition)
        : node,
    );
    await agent.setTree(defineTree({ nodes: next }));
    const output = await agent.send('s', 'beta');
    expect(afters).toEqual(['new after']);
    expect(executed(output)).toEqual([5]);
    expect(output.trace.some((event) => event.type === 'session-reset')).toBe(false);
  });

  it('an invalid new tree is rejected and the old one stays', async () => {
    const agent = makeAgent(nodes(true));
    const tree = agent.tree;
    const needsModel = defineTree({
      nodes: [...nodes(true), { id: 9, type: 'llm', parent: 2, model: 'missing' }],
    });
    const error = await rejection(agent.setTree(needsModel));
    expect(error.code).toBe('MODEL_NOT_CONFIGURED');
    expect(agent.tree).toBe(tree);
    expect(executed(await agent.send('s', 'beta'))).toEqual([4]);
  });
});

describe('cancelling', () => {
  function slowTree(log: string[]) {
    return twoEmits(async (_self, context) => {
      log.push('before starts');
      await sleep(30);
      context.sessionState.set('visits', (context.sessionState.get<number>('visits') ?? 0) + 1);
      log.push('before ends');
    });
  }

  it('breaking out of stream() early cancels the turn and saves nothing', async () => {
    const log: string[] = [];
    const agent = slowTree(log);
    const seen: AgentEvent['type'][] = [];
    for await (const event of agent.stream('s', 'alpha')) {
      seen.push(event.type);
      if (event.type === 'callback-start') break;
    }
    expect(seen.at(-1)).toBe('callback-start');
    // The next message of the session waits for the cancelled turn to finish.
    const output = await agent.send('s', 'alpha');
    expect(log).toEqual(['before starts', 'before ends', 'before starts', 'before ends']);
    expect(output.turn).toBe(1);
    expect((await agent.sessionStore.load('s'))!.state).toEqual({ visits: 1 });
    expect(await agent.history('s')).toHaveLength(2);
  });

  it('an aborted signal rejects send with ABORTED and saves nothing', async () => {
    const log: string[] = [];
    const agent = slowTree(log);
    const controller = new AbortController();
    const pending = agent.send('s', 'alpha', { signal: controller.signal });
    await sleep(5);
    controller.abort();
    const error = await rejection(pending);
    expect(error.code).toBe('ABORTED');
    expect(await agent.sessionStore.load('s')).toBeNull();
  });

  it('stream() yields turn-end with the output as its last event', async () => {
    const agent = twoEmits();
    const events: AgentEvent[] = [];
    for await (const event of agent.stream('s', 'alpha')) events.push(event);
    const last = events.at(-1)!;
    expect(last.type).toBe('turn-end');
    if (last.type === 'turn-end') {
      expect(last.output.messages[0]!.content).toBe('A');
      expect(last.output.trace).toEqual(
        events.filter((e) => e.type !== 'turn-end' && e.type !== 'text-delta'),
      );
    }
    expect((await agent.sessionStore.load('s'))!.turn).toBe(1);
  });
});

describe('embedder', () => {
  it('embeds each chunk once, not on every turn', async () => {
    const exact = embedder();
    const agent = new TreeAgent({
      tree: defineTree({
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, type: 'agent', parent: 1, isPrimary: true },
          { id: 3, type: 'emit', parent: 2, chunks: ['alpha'], emit: say('A') },
          { id: 4, type: 'emit', parent: 2, chunks: ['beta'], emit: say('B') },
        ],
      }),
      embedder: exact,
    });
    await agent.send('s', 'alpha');
    await agent.send('s', 'beta');
    await agent.send('t', 'alpha');
    const embedded = exact.calls.flat();
    expect(embedded.filter((text) => text === 'alpha')).toHaveLength(1);
    expect(embedded.filter((text) => text === 'beta')).toHaveLength(1);
  });
});
