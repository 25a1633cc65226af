import { describe, expect, test } from 'vitest';
import { TreeAgent } from '../engine/agent/tree-agent.js';
import { DEFAULT_SIMILARITY_THRESHOLD, defineTree } from '../tree/define-tree.js';
import type { NodeDefinition } from '../tree/node-definition.js';
import { calibrateThresholds } from './calibrate-thresholds.js';

const answer = (content: string) => ({ message: { type: 'static' as const, content } });
const topics = {
  weather: [
    'will it rain tomorrow',
    'rain forecast for tomorrow',
    'is it going to rain',
    'forecast rain today',
  ],
  cards: ['my card was stolen', 'stolen credit card', 'block my stolen card', 'report a stolen card'],
  orders: ['where is my order', 'track my order', 'order status please', 'my order is late'],
};

function tree(root: Partial<NodeDefinition> = {}, agent: Partial<NodeDefinition> = {}) {
  return defineTree({
    nodes: [
      { id: 1, type: 'root', ...root } as NodeDefinition,
      { id: 2, type: 'agent', parent: 1, isPrimary: true, ...agent } as NodeDefinition,
      ...Object.entries(topics).map(
        ([name, chunks], index): NodeDefinition => ({
          id: 10 + index,
          type: 'emit',
          parent: 2,
          name,
          chunks,
          emit: answer(name),
        }),
      ),
    ],
  });
}

describe('thresholds calibrated at load', () => {
  test('a routing node without a hand-set threshold gets one from its chunks, visible with what it came from', async () => {
    const agent = new TreeAgent({ tree: tree() });
    const [threshold] = await agent.thresholds();
    expect(threshold).toMatchObject({ nodeId: 2, source: 'calibrated' });
    const calibration = threshold!.calibration!;
    expect(calibration.samples).toBe(12);
    expect(threshold!.threshold).toBe(Math.max(DEFAULT_SIMILARITY_THRESHOLD, calibration.quantile));
    // Near paraphrases of one topic score above it; something unrelated does not reach any topic.
    expect((await agent.route('will it rain tomorrow morning')).node.name).toBe('weather');
    const unrelated = await agent.route('recipe for a chocolate cake');
    expect(unrelated.noMatch).toBe(true);
    expect(unrelated.decisions[0]).toMatchObject({
      action: 'below-threshold',
      threshold: threshold!.threshold,
      thresholdSource: 'calibrated',
    });
  });

  test('the threshold keeps the asked share of the chunks’ nearest-neighbour similarities', () => {
    const calibrated = (keep: number) =>
      calibrateThresholds(
        tree(),
        // Chunk i's similarity to chunk j: 0.9 within a topic for the first two chunks of each, else 0.3.
        (position, from, to) => {
          const out = new Float32Array(12);
          for (let other = from; other < to; other++)
            out[other] = Math.floor(other / 4) === Math.floor(position / 4) && other % 4 < 2 ? 0.9 : 0.3;
          return out;
        },
        { keep },
      )[0]!;
    // Every chunk's nearest other chunk is at 0.9 (its topic's first two chunks, or the other of them).
    expect(calibrated(0.95).quantile).toBeGreaterThan(0.85);
    expect(calibrated(0.95).quantile).toBeLessThan(0.9);
    expect(calibrated(0.95).keep).toBe(1);
  });

  test('a threshold set by hand always wins: on the node, or as the root default', async () => {
    const onNode = new TreeAgent({ tree: tree({}, { similarityThreshold: 0.42 }) });
    expect(await onNode.thresholds()).toEqual([
      { nodeId: 2, name: undefined, threshold: 0.42, source: 'node' },
    ]);
    const onRoot = new TreeAgent({ tree: tree({ defaultSimilarityThreshold: 0.1 }) });
    expect((await onRoot.thresholds())[0]).toMatchObject({ threshold: 0.1, source: 'root-default' });
  });

  test('calibrateThresholds: false keeps the library default; too few chunks are not calibrated', async () => {
    const off = new TreeAgent({ tree: tree(), calibrateThresholds: false });
    expect((await off.thresholds())[0]).toMatchObject({
      threshold: DEFAULT_SIMILARITY_THRESHOLD,
      source: 'default',
    });
    const small = new TreeAgent({ tree: tree(), calibrateThresholds: { minChunks: 13 } });
    expect((await small.thresholds())[0]).toMatchObject({ source: 'default' });
  });

  test('the vector-store search calibrates the same thresholds as the in-memory index', async () => {
    const memory = await new TreeAgent({ tree: tree() }).thresholds();
    const store = await new TreeAgent({ tree: tree(), exploreIn: 'vector-store' }).thresholds();
    expect(store.map((threshold) => threshold.threshold)).toEqual(
      memory.map((threshold) => threshold.threshold),
    );
  });
});
