import { describe, expect, test } from 'vitest';
import {
  decideExperiment,
  experimentSampleSize,
  normalCdf,
  normalQuantile,
  type VariantOutcome,
} from './experiment-decision.js';
import { assignVariant } from './experiment-split.js';

/** A seeded generator (mulberry32): the simulations are the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Conversations split 50/50 by user, each contained with its version's probability, until the test
 * decides: the decision and how many conversations each variant had then.
 */
function simulate(containment: { a: number; b: number }, seed: number, design = {}) {
  const next = random(seed);
  const planned = experimentSampleSize(design);
  const variants = [
    { versionId: 'a', percent: 50 },
    { versionId: 'b', percent: 50 },
  ];
  const outcomes: Record<string, VariantOutcome> = {
    a: { versionId: 'a', conversations: 0, contained: 0 },
    b: { versionId: 'b', conversations: 0, contained: 0 },
  };
  for (let user = 0; ; user++) {
    const { versionId } = assignVariant(`seed-${seed}`, `user-${user}`, variants);
    const outcome = outcomes[versionId]!;
    outcome.conversations++;
    if (next() < containment[versionId as 'a' | 'b']) outcome.contained++;
    // A look every 10 conversations: the looks before the planned sample size must not decide.
    if (user % 10 !== 0 && Math.min(outcomes.a!.conversations, outcomes.b!.conversations) < planned) continue;
    const decision = decideExperiment(outcomes.a!, outcomes.b!, design);
    if (decision.status !== 'continue') return { decision, outcomes };
  }
}

describe('experiments', () => {
  test('the normal distribution helpers match the tables', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.8)).toBeCloseTo(0.841621, 5);
    expect(normalQuantile(0.01)).toBeCloseTo(-2.326348, 5);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1)).toBeCloseTo(0.158655, 6);
  });

  test('the sample size per variant is the textbook one (0.5 → 0.6, α 0.05, power 0.8: 388)', () => {
    expect(experimentSampleSize({ baseline: 0.5, minimumEffect: 0.1 })).toBe(388);
    expect(experimentSampleSize({ baseline: 0.5, minimumEffect: 0.05 })).toBeGreaterThan(1500);
  });

  test('users are split by the percents, each always to the same variant', () => {
    const variants = [
      { versionId: 'a', percent: 20 },
      { versionId: 'b', percent: 80 },
    ];
    let a = 0;
    for (let user = 0; user < 10_000; user++)
      if (assignVariant('x', `u${user}`, variants).versionId === 'a') a++;
    expect(a / 10_000).toBeGreaterThan(0.18);
    expect(a / 10_000).toBeLessThan(0.22);
    for (let user = 0; user < 50; user++)
      expect(assignVariant('x', `u${user}`, variants)).toEqual(assignVariant('x', `u${user}`, variants));
    expect(() =>
      assignVariant('x', 'u', [
        { versionId: 'a', percent: 60 },
        { versionId: 'b', percent: 30 },
      ]),
    ).toThrow(/add up to 100; they add up to 90/);
  });

  test('two versions with known containments (0.5, 0.6): the test picks the better one, at the planned sample size, about as often as its power', () => {
    const design = { baseline: 0.5, minimumEffect: 0.1 };
    const planned = experimentSampleSize(design);
    const runs = Array.from({ length: 100 }, (_, seed) => simulate({ a: 0.5, b: 0.6 }, seed + 1, design));
    for (const { decision, outcomes } of runs) {
      // It decides when the smaller arm reaches the plan (the split is random: the other is a bit larger).
      expect(Math.min(outcomes.a!.conversations, outcomes.b!.conversations)).toBe(planned);
      expect(Math.max(outcomes.a!.conversations, outcomes.b!.conversations)).toBeLessThan(planned * 1.3);
      expect(decision.winner).not.toBe('a');
    }
    const picked = runs.filter((run) => run.decision.winner === 'b').length;
    // Power 0.8 by design; binomial spread over 100 runs is about ±4 points.
    expect(picked).toBeGreaterThanOrEqual(68);
  });

  test('an A/A run over many seeds declares a winner no more often than its 5% error rate', () => {
    const design = { baseline: 0.5, minimumEffect: 0.1 };
    const runs = 400;
    let winners = 0;
    for (let seed = 1; seed <= runs; seed++)
      if (simulate({ a: 0.55, b: 0.55 }, 1000 + seed, design).decision.status === 'winner') winners++;
    // α = 0.05: expected 20 of 400; three binomial standard deviations above is 33.
    expect(winners).toBeLessThanOrEqual(33);
  });
});
