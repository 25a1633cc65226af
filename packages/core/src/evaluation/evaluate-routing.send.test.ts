import { describe, expect, test } from 'vitest';
import { TreeAgent } from '../engine/agent/tree-agent.js';
import { defineTree } from '../tree/define-tree.js';
import type { NodeDefinition } from '../tree/node-definition.js';
import { evaluateRouting } from './evaluate-routing.js';

/**
 * Evaluation equals the engine: the same utterances routed through `send` (a fresh session each) and
 * through `evaluateRouting` end on the same node, on trees whose intermediate nodes have thresholds
 * (stops there climb back, blacklisted, as the step loop does), with the default hashed embedder.
 */
const domains = {
  shipping: ['parcel', 'courier', 'delivery', 'abroad'],
  returns: ['refund', 'return', 'broken', 'size'],
  account: ['password', 'login', 'email', 'invoice'],
};
const others = ['weather', 'pizza', 'football', 'holiday', 'music', 'train', 'doctor', 'garden'];
const fillers = ['please', 'my', 'the', 'how', 'where', 'is', 'can', 'you', 'about', 'need'];

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function treeWith(options: { rootThreshold?: number; domainThresholds: number[]; domainChunks: boolean }) {
  const nodes: NodeDefinition[] = [
    options.rootThreshold === undefined
      ? { id: 1, type: 'root' }
      : { id: 1, type: 'root', defaultSimilarityThreshold: options.rootThreshold },
    {
      id: 2,
      type: 'agent',
      parent: 1,
      isPrimary: true,
      fallback: () => ({ nodeTarget: 99 }),
    },
    {
      id: 99,
      type: 'emit',
      parent: 2,
      name: 'sorry',
      emit: { message: { type: 'static', content: 'sorry' } },
    },
  ];
  let id = 10;
  Object.entries(domains).forEach(([domain, words], index) => {
    const domainId = id++;
    nodes.push({
      id: domainId,
      type: index === 2 ? 'switch' : 'empty',
      parent: 2,
      name: domain,
      similarityThreshold: options.domainThresholds[index]!,
      ...(options.domainChunks ? { chunks: [`${domain} question`, `about ${domain}`] } : {}),
    });
    for (const word of words) {
      nodes.push({
        id: id++,
        type: 'emit',
        parent: domainId,
        name: `${domain}/${word}`,
        chunks: [word, `${word} ${domain}`, `my ${word} problem`, `help with ${word}`],
        emit: { message: { type: 'static', content: word } },
      });
    }
  });
  return defineTree({ name: 'send-vs-eval', nodes });
}

function utterances(count: number, seed: number): [string, string][] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const inScope = Object.entries(domains).flatMap(([domain, words]) => words.map((word) => [domain, word]));
  return Array.from({ length: count }, () => {
    const words: string[] = [pick(fillers), pick(fillers)];
    let label = 'none';
    const roll = next();
    if (roll < 0.55) {
      const [domain, word] = pick(inScope);
      words.push(word!);
      if (next() < 0.4) words.push(domain!);
      label = `${domain}/${word}`;
    } else if (roll < 0.8) {
      const [domain, word] = pick(inScope);
      words.push(pick(others), word!.slice(0, 4));
      label = `${domain}/${word}`;
    } else words.push(pick(others), pick(others));
    return [words.sort(() => next() - 0.5).join(' '), label];
  });
}

async function viaSend(agent: TreeAgent, texts: string[]): Promise<string[]> {
  const names: string[] = [];
  for (const [index, text] of texts.entries()) {
    const output = await agent.send(`s${index}`, text);
    const nodeId = output.messages.at(-1)?.nodeId;
    const name = nodeId === undefined ? 'none' : agent.tree.node(nodeId).name;
    names.push(output.status === 'no-match' || name === 'sorry' ? 'none' : name!);
  }
  return names;
}

describe('evaluateRouting routes as send does', () => {
  const cases = [
    { rootThreshold: 0, domainThresholds: [0, 0.3, 0.5], domainChunks: false },
    { rootThreshold: 0.05, domainThresholds: [0.4, 0.02, 0.3], domainChunks: true },
    // No root default: the agent's threshold is calibrated, the domains' are set by hand.
    { domainThresholds: [0.4, 0.5, 0.45], domainChunks: true },
  ];
  test.each(cases.map((options, index) => [index, options] as const))(
    'tree %i: identical outcomes for 120 utterances',
    async (index, options) => {
      const tree = treeWith(options);
      const labelled = utterances(120, 7 + index);
      const report = await evaluateRouting(tree, new TreeAgent({ tree }), labelled);
      const sent = await viaSend(
        new TreeAgent({ tree }),
        labelled.map(([text]) => text),
      );
      expect(report.results.map((result) => result.predicted)).toEqual(sent);
    },
    60_000,
  );

  test('the trees exercise it: stops on intermediate nodes that climb back, some ending on another intent', async () => {
    let climbedThenAnswered = 0;
    let climbedThenDeclined = 0;
    for (const options of cases) {
      const agent = new TreeAgent({ tree: treeWith(options) });
      for (const [text] of utterances(120, 7 + cases.indexOf(options))) {
        const routed = await agent.route(text);
        if (!routed.passedThrough.length) continue;
        if (routed.noMatch) climbedThenDeclined++;
        else climbedThenAnswered++;
      }
    }
    expect(climbedThenAnswered).toBeGreaterThan(5);
    expect(climbedThenDeclined).toBeGreaterThan(5);
  });

  test('the agent without a hand-set threshold is calibrated; hand-set ones win', async () => {
    const agent = new TreeAgent({ tree: treeWith(cases[2]!) });
    const thresholds = await agent.thresholds();
    expect(thresholds.find((threshold) => threshold.nodeId === 2)).toMatchObject({ source: 'calibrated' });
    expect(
      thresholds.filter((threshold) => threshold.nodeId >= 10).map((threshold) => threshold.source),
    ).toEqual(['node', 'node', 'node']);
  });
});
