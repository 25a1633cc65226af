import { describe, expect, test, vi } from 'vitest';
import type { Embedder } from '../../embedding/embedder.js';
import { HashedEmbedder } from '../../embedding/hashed-embedder.js';
import type { AgentEvent } from '../../protocol/events.js';
import { defineTree } from '../../tree/define-tree.js';
import type { NodeDefinition } from '../../tree/node-definition.js';
import { AUTO_FIT_MIN_CHUNKS, type FittedSpace, type SpaceFitter } from '../runtime/space-fitter.js';
import { isUnsure } from './routing-runtime.js';
import { TreeAgent } from './tree-agent.js';

// A scripted fitter (a mock, for the agent's mechanics; @treeagent/fit's space-fitter.test.ts runs
// the real fit in its worker thread). Its "fitted space" maps every text to one vector, so that a
// route in it is recognisable: similarity 1 to every chunk.
const ONE_VECTOR: Embedder = { id: 'one-vector', dimensions: 2, embed: (texts) => texts.map(() => [1, 0]) };

function scriptedFitter(script: {
  cached?: FittedSpace | null;
  fit?: () => Promise<FittedSpace>;
}): SpaceFitter & { fits: number } {
  const fitter = {
    id: 'scripted',
    fits: 0,
    cached: async () => script.cached ?? null,
    fit: () => {
      fitter.fits++;
      return script.fit ? script.fit() : Promise.resolve(fitted());
    },
  };
  return fitter;
}

function fitted(cached = false): FittedSpace {
  return { embedder: ONE_VECTOR, cached, fitMilliseconds: 5 };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** agent → 2 topics, `perTopic` chunks each; thresholds calibrated (none set by hand). */
function topicsTree(perTopic = 60, root: Partial<NodeDefinition> = {}) {
  const topic = (id: number, name: string, word: string): NodeDefinition => ({
    id,
    type: 'emit',
    parent: 2,
    name,
    chunks: Array.from({ length: perTopic }, (_, i) => `${word} question number ${i} about ${word}s`),
    emit: { message: { type: 'static', content: name } },
  });
  return defineTree({
    name: 'topics',
    nodes: [
      { id: 1, type: 'root', ...root } as NodeDefinition,
      { id: 2, type: 'agent', parent: 1, isPrimary: true, name: 'agent' },
      topic(3, 'bikes', 'bike'),
      topic(4, 'helmets', 'helmet'),
    ],
  });
}

async function turnStart(agent: TreeAgent, session: string): Promise<AgentEvent | undefined> {
  for await (const event of agent.stream(session, 'bike question number 3 about bikes'))
    if (event.type === 'turn-start') return event;
  return undefined;
}

async function bestSimilarity(agent: TreeAgent, text: string): Promise<number | undefined> {
  return (await agent.route(text)).decisions.find((decision) => decision.best)?.best?.similarity;
}

describe('TreeAgent fits its embedding space at load', () => {
  test('serves in the unfitted space while fitting, then switches atomically and calibrates again', async () => {
    const fit = deferred<FittedSpace>();
    const lines: string[] = [];
    const agent = new TreeAgent({
      tree: topicsTree(),
      spaceFitter: scriptedFitter({ fit: () => fit.promise }),
      log: (level, message) => lines.push(`${level} ${message}`),
    });
    await agent.ready();
    expect(agent.space()).toMatchObject({ state: 'fitting', fitter: 'scripted' });
    expect(await bestSimilarity(agent, 'a bike question')).toBeLessThan(0.99);
    const before = await agent.thresholds();
    const output = await agent.send('s1', 'bike question number 3 about bikes');
    expect(output.messages[0]?.content).toBe('bikes');
    expect(await turnStart(agent, 's2')).not.toHaveProperty('fittedSpace');

    fit.resolve(fitted());
    expect(await agent.whenFitted()).toMatchObject({
      state: 'fitted',
      embedderId: 'one-vector',
      cached: false,
    });
    expect(await bestSimilarity(agent, 'a bike question')).toBeCloseTo(1, 5);
    // The trace says which space the turn routed in (debug view, OpenTelemetry).
    expect(await turnStart(agent, 's3')).toMatchObject({ fittedSpace: 'one-vector' });
    // Thresholds calibrated again in the fitted space (every similarity is 1 there).
    const after = await agent.thresholds();
    expect(after[0]!.source).toBe('calibrated');
    expect(after[0]!.threshold).not.toBe(before[0]!.threshold);
    expect(lines.join('\n')).toMatch(/info Tree Agent: routing tree "topics" in the fitted space/);
  });

  test('a cached fit is used from the first message: nothing is fitted', async () => {
    const fitter = scriptedFitter({ cached: fitted(true) });
    const agent = new TreeAgent({ tree: topicsTree(), spaceFitter: fitter });
    await agent.ready();
    expect(agent.space()).toMatchObject({ state: 'fitted', cached: true });
    expect(fitter.fits).toBe(0);
    expect(await bestSimilarity(agent, 'a bike question')).toBeCloseTo(1, 5);
  });

  test('a failed fit leaves the unfitted space serving, with a log line that says so', async () => {
    const lines: string[] = [];
    const agent = new TreeAgent({
      tree: topicsTree(),
      spaceFitter: scriptedFitter({ fit: () => Promise.reject(new Error('out of memory')) }),
      log: (level, message) => lines.push(`${level} ${message}`),
    });
    await agent.ready();
    const status = await agent.whenFitted();
    expect(status).toMatchObject({
      state: 'failed',
      embedderId: new HashedEmbedder().id,
      error: 'out of memory',
    });
    expect(lines).toEqual([
      expect.stringMatching(
        /^warn Tree Agent: fitting the embedding space to tree "topics" failed \(out of memory\); still routing in the unfitted space \(hashed/,
      ),
    ]);
    expect((await agent.send('s1', 'bike question number 3 about bikes')).messages[0]?.content).toBe('bikes');
    expect(await bestSimilarity(agent, 'a bike question')).toBeLessThan(0.99);
  });

  test('an interim fit the fitter hands routes while the final fit runs, then the final one', async () => {
    const interimEmbedder: Embedder = {
      id: 'interim-vector',
      dimensions: 2,
      embed: (texts) => texts.map(() => [0, 1]),
    };
    const final = deferred<FittedSpace>();
    const lines: string[] = [];
    const fitter: SpaceFitter = {
      id: 'scripted',
      cached: async () => null,
      fit: async (request) => {
        await request.onInterim?.({
          embedder: interimEmbedder,
          cached: false,
          fitMilliseconds: 3,
          baseId: 'student',
          baseReason: 'a cheap base (interim)',
        });
        return final.promise;
      },
    };
    const agent = new TreeAgent({
      tree: topicsTree(),
      spaceFitter: fitter,
      log: (level, message) => lines.push(`${level} ${message}`),
    });
    await agent.ready();
    await vi.waitFor(() => expect(agent.space()).toHaveProperty('interim'));
    expect(agent.space()).toEqual({
      state: 'fitting',
      embedderId: 'interim-vector',
      fitter: 'scripted',
      interim: { baseId: 'student', base: 'a cheap base (interim)', cached: false, fitMilliseconds: 3 },
    });
    expect(await turnStart(agent, 's1')).toMatchObject({ fittedSpace: 'interim-vector' });
    expect(await bestSimilarity(agent, 'a bike question')).toBeCloseTo(1, 5);
    expect(lines.join('\n')).toMatch(
      /info Tree Agent: routing tree "topics" in an interim fitted space while the fit runs \(fitted in 0\.0 s; over a cheap base \(interim\)\)/,
    );

    final.resolve(fitted());
    expect(await agent.whenFitted()).toMatchObject({ state: 'fitted', embedderId: 'one-vector' });
    expect(agent.space()).not.toHaveProperty('interim');
    expect(await turnStart(agent, 's2')).toMatchObject({ fittedSpace: 'one-vector' });
  });

  test('a fit that fails after an interim one leaves the interim space routing, and says so', async () => {
    const interimEmbedder: Embedder = {
      id: 'interim-vector',
      dimensions: 2,
      embed: (t) => t.map(() => [0, 1]),
    };
    const lines: string[] = [];
    const agent = new TreeAgent({
      tree: topicsTree(),
      spaceFitter: {
        id: 'scripted',
        cached: async () => null,
        fit: async (request) => {
          await request.onInterim?.({ embedder: interimEmbedder, cached: true, fitMilliseconds: 3 });
          throw new Error('out of memory');
        },
      },
      log: (level, message) => lines.push(`${level} ${message}`),
    });
    await agent.ready();
    expect(await agent.whenFitted()).toMatchObject({
      state: 'failed',
      embedderId: 'interim-vector',
      error: 'out of memory',
      interim: { cached: true },
    });
    expect(lines.at(-1)).toMatch(
      /^warn Tree Agent: fitting the embedding space to tree "topics" failed \(out of memory\); still routing in the interim fitted space \(interim-vector\)/,
    );
    expect(await turnStart(agent, 's1')).toMatchObject({ fittedSpace: 'interim-vector' });
  });

  test('an interim fit handed after the tree was replaced installs nothing', async () => {
    const interimEmbedder: Embedder = {
      id: 'interim-vector',
      dimensions: 2,
      embed: (t) => t.map(() => [0, 1]),
    };
    const gate = deferred<void>();
    let calls = 0;
    const agent = new TreeAgent({
      tree: topicsTree(),
      spaceFitter: {
        id: 'scripted',
        cached: async () => null,
        fit: async (request) => {
          if (++calls === 1) {
            await gate.promise;
            await request.onInterim?.({ embedder: interimEmbedder, cached: false, fitMilliseconds: 3 });
          }
          return fitted();
        },
      },
    });
    await agent.ready();
    await agent.setTree(topicsTree(70));
    expect(await agent.whenFitted()).toMatchObject({ state: 'fitted', embedderId: 'one-vector' });
    gate.resolve();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(agent.space()).toMatchObject({ state: 'fitted', embedderId: 'one-vector' });
    expect(await turnStart(agent, 's1')).toMatchObject({ fittedSpace: 'one-vector' });
  });

  test('a cascade: a sure message routes in the first space, an unsure one in the second', async () => {
    // The first space: the hashed n-grams under another id (so the trace names it); the second:
    // ONE_VECTOR (every chunk at similarity 1), recognisable in the trace and the route.
    const hashed = new HashedEmbedder();
    const cheap: Embedder = {
      id: 'cheap',
      dimensions: hashed.dimensions,
      embed: (texts) => hashed.embed(texts),
    };
    const space: FittedSpace = {
      embedder: cheap,
      cached: true,
      fitMilliseconds: 1,
      escalation: {
        embedder: ONE_VECTOR,
        margin: 0.1,
        gap: 0.02,
        baseId: 'costly',
        baseReason: 'a costly base',
      },
    };
    // Thresholds set by hand (0.3 in both spaces), so the gate's distance to them is known.
    const agent = new TreeAgent({
      tree: topicsTree(60, { defaultSimilarityThreshold: 0.3 }),
      spaceFitter: scriptedFitter({ cached: space }),
    });
    await agent.ready();
    expect(agent.space()).toMatchObject({
      state: 'fitted',
      embedderId: 'cheap',
      escalation: {
        embedderId: 'one-vector',
        baseId: 'costly',
        base: 'a costly base',
        margin: 0.1,
        gap: 0.02,
      },
    });
    // Bike words only: far ahead of the other topic, far above the threshold; routed in the first space.
    const sure = 'a bike question about my bikes';
    const first = await agent.route(sure);
    expect(first.decisions[0]!.best!.similarity).toBeLessThan(0.95);
    expect(first.decisions[0]!.best!.similarity).toBeGreaterThan(0.45);
    expect(first.node.name).toBe('bikes');
    expect(first.fittedSpace).toBe('cheap');
    // Both topics' words: the two children are close, so the second space decides.
    const unsure = 'question number 3 about bikes and helmets';
    expect((await agent.route(unsure)).fittedSpace).toBe('one-vector');
    expect(await bestSimilarity(agent, unsure)).toBeCloseTo(1, 5);
    const streamed = async (text: string) => {
      for await (const event of agent.stream(`s-${text}`, text))
        if (event.type === 'turn-start') return event;
      return undefined;
    };
    expect(await streamed(sure)).toMatchObject({ fittedSpace: 'cheap' });
    expect(await streamed(unsure)).toMatchObject({ fittedSpace: 'one-vector' });
  });

  test('the cascade gate: a close runner-up or a similarity near the threshold is unsure', () => {
    const decision = (similarity: number, runnerUp: number | null, threshold: number | null) =>
      ({
        type: 'explore-decision',
        nodeId: 2,
        action: 'descend',
        moved: false,
        threshold,
        nextNodeId: 3,
        best: {
          chunkId: 'c',
          text: 't',
          nodeId: 3,
          childId: 3,
          similarity,
          runnerUp: runnerUp === null ? null : { childId: 4, similarity: runnerUp },
        },
      }) as const;
    const gate = { margin: 0.05, gap: 0.06 };
    expect(isUnsure(decision(0.8, 0.7, 0.5), gate)).toBe(false);
    expect(isUnsure(decision(0.8, 0.76, 0.5), gate)).toBe(true);
    expect(isUnsure(decision(0.8, null, 0.75), gate)).toBe(true);
    expect(isUnsure(decision(0.7, null, 0.75), gate)).toBe(true);
    expect(isUnsure(decision(0.6, null, 0.75), gate)).toBe(false);
    expect(isUnsure(decision(0.8, null, null), gate)).toBe(false);
    expect(isUnsure({ ...decision(0.8, null, null), best: null }, gate)).toBe(false);
  });

  test('setTree during a fit: the old fit is dropped, the new tree is fitted', async () => {
    // The stale fit's space is recognisable: its own embedder id, and it records that the agent
    // built a runtime in it (the last thing the stale fit does before it must give up).
    let staleEmbeds = 0;
    const stale: Embedder = {
      id: 'stale-vector',
      dimensions: 2,
      embed: (texts) => {
        staleEmbeds++;
        return texts.map(() => [0, 1]);
      },
    };
    const first = deferred<FittedSpace>();
    let calls = 0;
    const fitter = scriptedFitter({ fit: () => (++calls === 1 ? first.promise : Promise.resolve(fitted())) });
    const agent = new TreeAgent({ tree: topicsTree(), spaceFitter: fitter });
    await agent.ready();
    await agent.setTree(topicsTree(70));
    expect(await agent.whenFitted()).toMatchObject({ state: 'fitted', embedderId: 'one-vector' });
    first.resolve({ embedder: stale, cached: false, fitMilliseconds: 5 });
    await vi.waitFor(() => expect(staleEmbeds).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The stale fit installs nothing: not its runtime (the old tree, its space), not its status.
    expect(agent.tree.chunks).toHaveLength(140);
    expect(agent.space()).toMatchObject({ state: 'fitted', embedderId: 'one-vector' });
    expect(await turnStart(agent, 's1')).toMatchObject({ fittedSpace: 'one-vector' });
    expect(await bestSimilarity(agent, 'a bike question')).toBeCloseTo(1, 5);
    expect(fitter.fits).toBe(2);
  });

  test('no spaceFitter: the agent stays unfitted, whatever is installed, and says how to fit', async () => {
    // @treeagent/fit is installed in this repository (and resolvable from core's tests): core must
    // still not find it by itself.
    const agent = new TreeAgent({ tree: topicsTree() });
    const status = await agent.whenFitted();
    expect(status).toMatchObject({ state: 'unfitted', embedderId: new HashedEmbedder().id });
    expect(status.state === 'unfitted' ? status.reason : '').toMatch(
      /no spaceFitter is given \(pass spaceFitter: spaceFitter\(\) from @treeagent\/fit/,
    );
  });

  test("'auto' fits only the default embedder, in memory, a tree of enough chunks", async () => {
    const reason = async (options: ConstructorParameters<typeof TreeAgent>[0]) => {
      const agent = new TreeAgent({ spaceFitter: scriptedFitter({}), ...options });
      const status = await agent.whenFitted();
      return status.state === 'unfitted' ? status.reason : status.state;
    };
    expect(await reason({ tree: topicsTree() })).toBe('fitted');
    expect(await reason({ tree: topicsTree(), fit: false })).toBe('fit: false');
    expect(await reason({ tree: topicsTree(), embedder: new HashedEmbedder() })).toMatch(
      /an embedder is given/,
    );
    expect(await reason({ tree: topicsTree(), embedder: new HashedEmbedder(), fit: true })).toBe('fitted');
    expect(await reason({ tree: topicsTree(AUTO_FIT_MIN_CHUNKS / 2 - 1) })).toMatch(/fewer than 100/);
    // A threshold set by hand applies in the fitted space (eval measures and suggests it there).
    expect(await reason({ tree: topicsTree(60, { defaultSimilarityThreshold: 0.3 }) })).toBe('fitted');
    expect(await reason({ tree: topicsTree(), exploreIn: 'vector-store' })).toMatch(/vector-store/);
  });
});
