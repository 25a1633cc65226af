import { describe, expect, it } from 'vitest';
import { TreeAgent } from '../../packages/core/src/index.js';
import { BASES, baseOptions, parseBase } from '../student/bases.js';
import { clincFold, clincTree } from './clinc150.js';
import { routeCounts } from './route-counts.js';

/**
 * The routing benchmarks' shared helpers, on a tiny CLINC150-shaped set (the real one is read only by
 * the benchmarks): the fold split every cross-validation uses, the count of routed outcomes, and the
 * `--base` flag's names.
 */
const intents = {
  banking: ['balance', 'transfer'],
  travel: ['book_flight'],
};
const utterances: Record<string, string[]> = {
  balance: [
    'what is my balance',
    'how much money do i have',
    'show my account balance',
    'balance please',
    'check balance',
  ],
  transfer: [
    'send money to mum',
    'transfer 20 dollars',
    'move money between accounts',
    'wire money',
    'make a transfer',
  ],
  book_flight: [
    'book a flight to rome',
    'i need a plane ticket',
    'flights to paris',
    'fly to berlin',
    'get me a flight',
  ],
};
const data = {
  domains: intents,
  train: Object.entries(utterances).flatMap(([intent, texts]) =>
    texts.map((text) => [text, intent] as [string, string]),
  ),
  val: [],
  oosVal: [],
  oosTrain: [
    ['what is the weather like', 'oos'],
    ['tell me a joke', 'oos'],
  ] as [string, string][],
};

describe('clincFold', () => {
  it('holds out the i-th utterance of every intent in fold i mod folds, and every out-of-scope message in each fold', () => {
    const heldOut = new Set<string>();
    for (let fold = 0; fold < 5; fold++) {
      const { train, test } = clincFold(data, 5, fold);
      const inScope = test.filter(([, label]) => label !== 'none');
      // One utterance of each intent: the fold-th.
      expect(inScope).toEqual(Object.entries(utterances).map(([intent, texts]) => [texts[fold], intent]));
      expect(test.filter(([, label]) => label === 'none').map(([text]) => text)).toEqual(
        data.oosTrain.map(([text]) => text),
      );
      // Train and held-out never share an utterance, and together they are the whole train split.
      const trained = new Set(train.map(([text]) => text));
      for (const [text] of inScope) expect(trained.has(text)).toBe(false);
      expect(train.length + inScope.length).toBe(data.train.length);
      for (const [text] of inScope) heldOut.add(text);
    }
    expect(heldOut.size).toBe(data.train.length);
  });
});

describe('routeCounts', () => {
  it('counts what agent.route decides: right, answered and declined, as the agent routes', async () => {
    const { train, test } = clincFold(data, 5, 0);
    const agent = new TreeAgent({ tree: clincTree(data, { train, threshold: 0.35 }), fit: false });
    const counts = await routeCounts(agent, test);
    const outcomes = await Promise.all(
      test.map(async ([text, expected]) => {
        const routed = await agent.route(text);
        return { expected, predicted: routed.noMatch ? 'none' : routed.node.name };
      }),
    );
    const inScope = outcomes.filter((o) => o.expected !== 'none');
    const right = inScope.filter((o) => o.predicted === o.expected).length;
    const answered = inScope.filter((o) => o.predicted !== 'none').length;
    const declined = outcomes.filter((o) => o.expected === 'none' && o.predicted === 'none').length;
    expect(counts).toEqual({ inScope: 3, right, answered, outOfScope: 2, declined, escalated: 0 });
    expect(right).toBeGreaterThan(0);
  });
});

describe('the benchmarks’ --base flag', () => {
  it('takes the known bases, use+hashed by default, and names them when refusing another', () => {
    expect(parseBase(undefined)).toBe('use+hashed');
    for (const name of BASES) expect(parseBase(name)).toBe(name);
    expect(() => parseBase('bert')).toThrow(/--base bert: expected one of use\+hashed, hashed, student/);
  });

  it("gives the library's own bases for use+hashed and hashed, without loading a model", () => {
    const tree = clincTree(data);
    expect(baseOptions('use+hashed', tree)).toEqual({});
    expect(baseOptions('hashed', tree)).toEqual({ base: 'agent' });
  });
});
