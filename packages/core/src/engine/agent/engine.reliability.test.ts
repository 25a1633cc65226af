import { describe, expect, it } from 'vitest';
import type {
  Embedder,
  LanguageModel,
  ModelRequest,
  ModelStreamPart,
  SessionCommit,
} from '../../adapter/index.js';
import {
  type AgentEvent,
  defineTree,
  InMemorySessionStore,
  type NodeDefinition,
  TreeAgent,
  type TreeAgentOptions,
} from '../../index.js';
import { ExactEmbedder, ScriptedLanguageModel } from '../../test/index.js';
import { rejection } from '../../test/rejection.js';

const VECTORS: Record<string, number[]> = {
  hello: [1, 0, 0, 0, 0],
  slow: [0, 1, 0, 0, 0],
  story: [0, 0, 1, 0, 0],
  think: [0, 0, 0, 1, 0],
  sorry: [0, 0, 0, 0, 1],
};

const never = () => new Promise<never>(() => {});

/**
 * Agent 2 (optional fallback → 9):
 * - 3 hello: static message;
 * - 4 slow: emit callback that waits for `slow()`;
 * - 5 story: generated message (streamed);
 * - 6 think: llm node, then node 7's static message;
 * - 9: the apology.
 */
function nodes(options: { slow?: () => Promise<unknown>; fallback?: boolean } = {}): NodeDefinition[] {
  return [
    { id: 1, type: 'root' },
    {
      id: 2,
      type: 'agent',
      parent: 1,
      isPrimary: true,
      links: { sorry: 9 },
      ...(options.fallback ? { fallback: (_s, _c, _sp, links) => ({ nodeTarget: links.sorry }) } : {}),
    },
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
      chunks: ['slow'],
      emit: async () => {
        await (options.slow ?? never)();
        return { message: { type: 'static', content: 'Finally.' } };
      },
    },
    {
      id: 5,
      type: 'emit',
      parent: 2,
      chunks: ['story'],
      prompt: () => ({ prompt: 'Tell a story' }),
      emit: { message: { type: 'generated' } },
    },
    {
      id: 6,
      type: 'llm',
      parent: 2,
      chunks: ['think'],
      links: { next: 7 },
      after: (_s, _c, _sp, links) => ({ nodeTarget: links.next, step: 'before' }),
    },
    { id: 7, type: 'emit', parent: 6, emit: { message: { type: 'static', content: 'Thought.' } } },
    {
      id: 9,
      type: 'emit',
      parent: 2,
      chunks: ['sorry'],
      emit: { message: { type: 'static', content: 'Sorry!' } },
    },
  ] as NodeDefinition[];
}

function agentWith(
  options: Omit<TreeAgentOptions, 'tree'> = {},
  tree: { slow?: () => Promise<unknown>; fallback?: boolean } = {},
): TreeAgent {
  return new TreeAgent({
    tree: defineTree({ nodes: nodes(tree) }),
    embedder: new ExactEmbedder({ vectors: VECTORS }),
    models: new ScriptedLanguageModel({ answers: 'Once upon a time.' }),
    ...options,
  });
}

/** A model whose calls never finish; records the signals it got. */
class HangingModel implements LanguageModel {
  readonly id = 'hanging';
  readonly signals: (AbortSignal | undefined)[] = [];
  returned = 0;
  constructor(
    readonly honoursSignal: boolean,
    readonly firstDelta = '',
  ) {}
  generate(request: ModelRequest): Promise<never> {
    this.signals.push(request.signal);
    return new Promise((_, reject) => {
      if (this.honoursSignal) request.signal?.addEventListener('abort', () => reject(request.signal?.reason));
    });
  }
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    this.signals.push(request.signal);
    let sent = false;
    return {
      [Symbol.asyncIterator]: () => ({
        next: (): Promise<IteratorResult<ModelStreamPart>> => {
          if (!sent && this.firstDelta) {
            sent = true;
            return Promise.resolve({ done: false, value: { type: 'text-delta', delta: this.firstDelta } });
          }
          return this.generate(request);
        },
        return: async (): Promise<IteratorResult<ModelStreamPart>> => {
          this.returned += 1;
          return { done: true, value: undefined };
        },
      }),
    };
  }
}

/** A model streaming some text then failing, `failures` times, then streaming `answer`. */
class BrokenStreamModel implements LanguageModel {
  readonly id = 'broken-stream';
  calls = 0;
  constructor(
    readonly failures: number,
    readonly answer = 'A whole story.',
  ) {}
  async generate(): Promise<{ text: string }> {
    return { text: this.answer };
  }
  async *stream(): AsyncIterable<ModelStreamPart> {
    this.calls += 1;
    if (this.calls <= this.failures) {
      yield { type: 'text-delta', delta: 'A half ' };
      yield { type: 'text-delta', delta: 'sto' };
      throw new Error('connection reset by peer');
    }
    yield { type: 'text-delta', delta: this.answer };
  }
}

async function snapshot(store: InMemorySessionStore, sessionId: string) {
  return { record: await store.load(sessionId), history: await store.history(sessionId) };
}

describe('time limits: callbackTimeoutMs', () => {
  it('turns a callback that outlives the limit into TIMEOUT naming node and callback; nothing saved', async () => {
    const store = new InMemorySessionStore();
    const agent = agentWith({ callbackTimeoutMs: 40, sessionStore: store });
    const started = performance.now();
    const error = await rejection(agent.send('s1', 'slow'));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(error.code).toBe('TIMEOUT');
    expect(error.nodeId).toBe(4);
    expect(error.callback).toBe('emit');
    expect(error.message).toContain('"emit" callback of node 4');
    expect(await snapshot(store, 's1')).toEqual({ record: null, history: [] });
    // The session still works.
    expect((await agent.send('s1', 'hello')).messages[0]?.content).toBe('Hi!');
  });

  it('sends a callback timeout to the agent fallback like any callback error', async () => {
    const agent = agentWith({ callbackTimeoutMs: 40 }, { fallback: true });
    const output = await agent.send('s1', 'slow');
    expect(output.messages.map((message) => message.content)).toEqual(['Sorry!']);
    const fallback = output.trace.find((event) => event.type === 'fallback');
    expect(fallback).toMatchObject({ error: { code: 'TIMEOUT', nodeId: 4 }, nodeTarget: 9 });
  });

  it('lets a callback finish within the limit, and 0 disables the limit', async () => {
    const quick = agentWith(
      { callbackTimeoutMs: 500 },
      { slow: () => new Promise((r) => setTimeout(r, 20)) },
    );
    expect((await quick.send('s1', 'slow')).messages[0]?.content).toBe('Finally.');
    const unlimited = agentWith(
      { callbackTimeoutMs: 0 },
      { slow: () => new Promise((r) => setTimeout(r, 60)) },
    );
    expect((await unlimited.send('s1', 'slow')).messages[0]?.content).toBe('Finally.');
  });

  it('keeps the default of 30 s (a 60 ms callback is fine without options)', async () => {
    const agent = agentWith({}, { slow: () => new Promise((r) => setTimeout(r, 60)) });
    expect((await agent.send('s1', 'slow')).messages[0]?.content).toBe('Finally.');
  });
});

describe('time limits: modelTimeoutMs', () => {
  it('aborts a generate call past the limit and raises TIMEOUT on the node', async () => {
    const model = new HangingModel(true);
    const store = new InMemorySessionStore();
    const agent = agentWith({ models: model, modelTimeoutMs: 40, sessionStore: store });
    const error = await rejection(agent.send('s1', 'think'));
    expect(error.code).toBe('TIMEOUT');
    expect(error.nodeId).toBe(6);
    expect(error.details).toMatchObject({ modelId: 'hanging', timeoutMs: 40 });
    expect(model.signals[0]?.aborted).toBe(true);
    expect(await snapshot(store, 's1')).toEqual({ record: null, history: [] });
  });

  it('abandons a model that ignores its signal', async () => {
    const model = new HangingModel(false);
    const agent = agentWith({ models: model, modelTimeoutMs: 40 });
    const error = await rejection(agent.send('s1', 'think'));
    expect(error.code).toBe('TIMEOUT');
    expect(model.signals[0]?.aborted).toBe(true);
  });

  it('aborts a stream that stalls after its first delta, closes it, and saves nothing', async () => {
    const model = new HangingModel(true, 'Once ');
    const store = new InMemorySessionStore();
    const agent = agentWith({ models: model, modelTimeoutMs: 40, sessionStore: store });
    const events: AgentEvent[] = [];
    for await (const event of agent.stream('s1', 'story')) events.push(event);
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'TIMEOUT', nodeId: 5 } });
    expect(model.returned).toBe(1);
    expect(await snapshot(store, 's1')).toEqual({ record: null, history: [] });
  });

  it('goes to the fallback when there is one', async () => {
    const agent = agentWith({ models: new HangingModel(true), modelTimeoutMs: 30 }, { fallback: true });
    const output = await agent.send('s1', 'think');
    expect(output.messages.map((message) => message.content)).toEqual(['Sorry!']);
  });
});

describe('cancellation', () => {
  it('a consumer that stops reading cancels a turn stuck in a callback within callbackTimeoutMs, saving nothing', async () => {
    const store = new InMemorySessionStore();
    // Cancellation does not cut a callback short (the session's callbacks never overlap): the time
    // limit bounds how long the next turn of the session waits.
    const agent = agentWith({ sessionStore: store, callbackTimeoutMs: 100 });
    const started = performance.now();
    for await (const event of agent.stream('s1', 'slow')) {
      if (event.type === 'callback-start' && event.callback === 'emit') break;
    }
    // The mutex is free again: the next turn of the same session runs.
    expect((await agent.send('s1', 'hello')).messages[0]?.content).toBe('Hi!');
    expect(performance.now() - started).toBeLessThan(2000);
    const history = await store.history('s1');
    expect(history.map((entry) => entry.content)).toEqual(['hello', 'Hi!']);
  });

  it('an aborted signal cancels a hanging model call with ABORTED, not TIMEOUT', async () => {
    const controller = new AbortController();
    const agent = agentWith({ models: new HangingModel(false), modelTimeoutMs: 10_000 });
    const pending = rejection(agent.send('s1', 'think', { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('client went away')), 20);
    expect((await pending).code).toBe('ABORTED');
  });
});

describe('faults reach no history', () => {
  it('a stream that breaks halfway leaves no half message; the retried turn is saved once', async () => {
    const store = new InMemorySessionStore();
    const model = new BrokenStreamModel(1);
    const agent = agentWith({ models: model, sessionStore: store });
    await agent.send('s1', 'hello');
    const before = await snapshot(store, 's1');
    const events: AgentEvent[] = [];
    for await (const event of agent.stream('s1', 'story')) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'MODEL' } });
    expect(await snapshot(store, 's1')).toEqual(before);

    const output = await agent.send('s1', 'story');
    expect(output.messages.map((message) => message.content)).toEqual(['A whole story.']);
    const history = await store.history('s1');
    expect(history.map((entry) => [entry.role, entry.content, entry.turn])).toEqual([
      ['user', 'hello', 1],
      ['assistant', 'Hi!', 1],
      ['user', 'story', 2],
      ['assistant', 'A whole story.', 2],
    ]);
    expect(history.some((entry) => entry.content?.includes('half'))).toBe(false);
  });

  it('an embedder that throws fails the turn with EMBEDDER and saves nothing', async () => {
    const exact = new ExactEmbedder({ vectors: VECTORS });
    let broken = false;
    const embedder: Embedder = {
      id: exact.id,
      dimensions: exact.dimensions,
      embed: (texts) => {
        if (broken) throw new Error('embedding service unavailable');
        return exact.embed(texts);
      },
    };
    const store = new InMemorySessionStore();
    const agent = agentWith({ embedder, sessionStore: store });
    await agent.send('s1', 'hello');
    const before = await snapshot(store, 's1');
    broken = true;
    // A text no cache holds, so the direction must be embedded.
    const error = await rejection(agent.send('s1', 'a brand new question'));
    expect(error.code).toBe('EMBEDDER');
    expect(await snapshot(store, 's1')).toEqual(before);
    broken = false;
    expect((await agent.send('s1', 'hello')).turn).toBe(2);
  });

  it('a store that fails in commit leaves the session exactly as before; the next turn works', async () => {
    const inner = new InMemorySessionStore();
    let failNext = false;
    const store = {
      load: (id: string) => inner.load(id),
      history: (id: string, query?: { limit?: number }) => inner.history(id, query),
      delete: (id: string) => inner.delete(id),
      commit: async (commit: SessionCommit) => {
        if (failNext) {
          failNext = false;
          throw new Error('connection terminated unexpectedly');
        }
        return inner.commit(commit);
      },
    };
    const agent = agentWith({ sessionStore: store });
    await agent.send('s1', 'hello');
    const before = await snapshot(inner, 's1');
    failNext = true;
    const error = await rejection(agent.send('s1', 'story'));
    expect(error.code).toBe('SESSION_STORE');
    expect(await snapshot(inner, 's1')).toEqual(before);
    const output = await agent.send('s1', 'story');
    expect(output.turn).toBe(2);
    expect((await inner.history('s1')).map((entry) => entry.content)).toEqual([
      'hello',
      'Hi!',
      'story',
      'Once upon a time.',
    ]);
  });
});
