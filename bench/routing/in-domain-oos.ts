import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Embedder, SpaceFitter } from '../../packages/core/src/adapter/index.js';
import { embedTexts } from '../../packages/core/src/embedding/embed-texts.js';
import {
  defineTree,
  FileEmbeddingCache,
  type NodeDefinition,
  TreeAgent,
} from '../../packages/core/src/index.js';
import { spaceFitter } from '../../packages/fit/src/index.js';
import { baseOptions, parseBase } from '../student/bases.js';
import { loadClinc150 } from './clinc150.js';

/**
 * In-domain out-of-scope on CLINC150 `train` only (never `val`): for each of the 10 domains and each
 * split (fixed seeds), a tree of 10 of the domain's 15 intents (agent → 10 intent leaves, the kept
 * intents' `train` utterances but one fold of 5 as chunks), as a user gets it:
 * `new TreeAgent({ tree, spaceFitter: spaceFitter() })`, fitted at load (USE-lite + hashed), the
 * thresholds calibrated. Scored: the kept intents' held-out fold as in-scope messages, and every
 * `train` utterance of the 5 left-out intents as in-domain out-of-scope messages (a message of the
 * domain that none of the tree's intents answers), plus `oos_train` (out of every domain).
 *
 * The current rule is measured through `agent.route` (the real explore step). The ideas are scored
 * on the same fitted vectors (the fitted embedder's, exact dot products: the agent's chunk search is the
 * same best-chunk similarity), each computed from the tree's own chunks only:
 * (a) margin: decline also when the best intent's similarity is less than `m` above the runner-up's;
 * (b) per-node thresholds: each intent leaf's own threshold, the similarity that `keep` of its
 *     chunks' nearest other chunk of the same intent exceed;
 * (c) an "unknown intent" threshold per tree: the chunks of 2 intents at a time play unknown
 *     messages (their best similarity to the other intents' chunks) and held-out chunks of the
 *     others in-scope ones (their best similarity to the rest); the threshold that best separates
 *     them (balanced accuracy), in the space fitted on all chunks (a bias: see the results' notes).
 * Embeddings come from `bench/.cache/embeddings` (fill it with `embed-use-cache.ts`).
 *
 * `--base <name>`: another base of the fit (`bench/student/bases.ts`: the USE-lite student alone or
 * combined), `--keep <k>` its calibration's keep; its results go to `in-domain-oos-results-<name>.json`.
 *
 * npx tsx bench/routing/in-domain-oos.ts [--splits 2] [--domains banking,travel] [--base student+hashed --keep 0.95] [--no-write]
 */
const argument = (name: string) => {
  const index = process.argv.indexOf(name);
  return index < 0 ? undefined : process.argv[index + 1];
};
const splits = Number(argument('--splits') ?? 2);
const folds = 5;
const data = loadClinc150();
const domains = argument('--domains')?.split(',') ?? Object.keys(data.domains);
const base = parseBase(argument('--base'));
const keepOption = argument('--keep');
const cache = new FileEmbeddingCache(fileURLToPath(new URL('../.cache/embeddings', import.meta.url)));

/** A small deterministic generator (mulberry32). */
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

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const next = random(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

/** Best similarity per intent (index) of a vector to the chunks, skipping the chunk `skip`. */
function bestPerIntent(
  vector: Float32Array,
  chunks: Float32Array[],
  chunkIntent: number[],
  intents: number,
  skip = -1,
  include?: (chunk: number) => boolean,
): Float64Array {
  const best = new Float64Array(intents).fill(Number.NEGATIVE_INFINITY);
  for (let c = 0; c < chunks.length; c++) {
    if (c === skip || (include && !include(c))) continue;
    const s = dot(vector, chunks[c]!);
    if (s > best[chunkIntent[c]!]!) best[chunkIntent[c]!] = s;
  }
  return best;
}

interface Scored {
  /** Index of the best intent, its similarity, the runner-up's. */
  top: number;
  best: number;
  second: number;
}

function score(perIntent: Float64Array): Scored {
  let top = -1;
  let best = Number.NEGATIVE_INFINITY;
  let second = Number.NEGATIVE_INFINITY;
  perIntent.forEach((value, intent) => {
    if (value > best) {
      second = best;
      best = value;
      top = intent;
    } else if (value > second) second = value;
  });
  return { top, best, second };
}

function quantileKeeping(values: number[], keep: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const dropped = Math.min(sorted.length - 1, Math.max(0, Math.floor((1 - keep) * sorted.length)));
  return sorted[dropped]! - 1e-4;
}

/** A rule: answers (the intent index) or declines (-1). */
type Rule = (message: Scored) => number;

interface Figures {
  inScopeRight: number;
  inScopeAnswered: number;
  inDomainOosDeclined: number;
  outOfScopeDeclined: number;
}

const margins = [0, 0.02, 0.04, 0.06, 0.08, 0.1, 0.12, 0.15];
const perNodeKeeps = [0.8, 0.85, 0.9, 0.95];
const unknownTargets = [0.85, 0.9, 0.95];
const rows: Record<string, Figures[]> = {};
const add = (name: string, figures: Figures) => {
  rows[name] ??= [];
  rows[name].push(figures);
};
const trees: unknown[] = [];

for (const domain of domains) {
  const intents = data.domains[domain]!;
  for (let split = 0; split < splits; split++) {
    const order = shuffled(intents, 1000 * (split + 1) + domains.indexOf(domain));
    const kept = order.slice(0, 10);
    const unknown = new Set(order.slice(10));
    const fold = split % folds;
    const chunksOf = new Map<string, string[]>(kept.map((intent) => [intent, []]));
    const inScope: [string, number][] = [];
    const seen = new Map<string, number>();
    const inDomainOos: string[] = [];
    for (const [text, intent] of data.train) {
      if (unknown.has(intent)) inDomainOos.push(text);
      if (!chunksOf.has(intent)) continue;
      const index = seen.get(intent) ?? 0;
      seen.set(intent, index + 1);
      if (index % folds === fold) inScope.push([text, kept.indexOf(intent)]);
      else chunksOf.get(intent)!.push(text);
    }
    const outOfScope = data.oosTrain.map(([text]) => text);
    const nodes: NodeDefinition[] = [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true, name: domain },
      ...kept.map(
        (intent, k): NodeDefinition => ({
          id: 10 + k,
          type: 'emit',
          parent: 2,
          name: intent,
          chunks: chunksOf.get(intent)!,
          emit: { message: { type: 'static', content: intent } },
        }),
      ),
    ];
    const tree = defineTree({ name: `${domain}-${split}`, nodes });
    // The library's fitter, the fitted embedder kept to score the ideas on the same vectors.
    const library = spaceFitter({
      cacheDirectory: false,
      ...baseOptions(base, tree),
      ...(keepOption ? { calibrationKeep: Number(keepOption) } : {}),
    });
    let fitted: Embedder | undefined;
    const fitter: SpaceFitter = {
      ...library,
      cached: async (request) => library.cached(request),
      fit: async (request) => {
        const space = await library.fit(request);
        fitted = space.embedder;
        return space;
      },
    };
    const agent = new TreeAgent({ tree, embeddingCache: cache, spaceFitter: fitter });
    const status = await agent.whenFitted();
    if (status.state !== 'fitted')
      throw new Error(`${domain}/${split}: not fitted (${JSON.stringify(status)})`);
    const threshold = (await agent.thresholds()).find((t) => t.nodeId === 2)!;

    // The current rule, through the engine.
    const routed = async (text: string) => {
      const result = await agent.route(text);
      return result.noMatch ? -1 : kept.indexOf(result.node.name!);
    };
    const engine = {
      inScope: await Promise.all(inScope.map(([text]) => routed(text))),
      inDomainOos: await Promise.all(inDomainOos.map(routed)),
      outOfScope: await Promise.all(outOfScope.map(routed)),
    };
    const figuresOf = (inScopeAnswers: number[], oos: number[], other: number[]): Figures => ({
      inScopeRight: inScopeAnswers.filter((answer, i) => answer === inScope[i]![1]).length / inScope.length,
      inScopeAnswered: inScopeAnswers.filter((answer) => answer >= 0).length / inScope.length,
      inDomainOosDeclined: oos.filter((answer) => answer < 0).length / oos.length,
      outOfScopeDeclined: other.filter((answer) => answer < 0).length / other.length,
    });
    const current = figuresOf(engine.inScope, engine.inDomainOos, engine.outOfScope);
    add('current (engine)', current);

    // The same fitted vectors, scored exactly.
    const chunkTexts = kept.flatMap((intent) => chunksOf.get(intent)!);
    const chunkIntent = kept.flatMap((intent, k) => chunksOf.get(intent)!.map(() => k));
    if (!fitted) throw new Error(`${domain}/${split}: the fitter gave no embedder`);
    const space = fitted;
    const chunks = await embedTexts(space, chunkTexts);
    const scoreAll = async (texts: string[]) =>
      (await embedTexts(space, texts)).map((vector) => score(bestPerIntent(vector, chunks, chunkIntent, 10)));
    const messages = {
      inScope: await scoreAll(inScope.map(([text]) => text)),
      inDomainOos: await scoreAll(inDomainOos),
      outOfScope: await scoreAll(outOfScope),
    };
    const apply = (rule: Rule) =>
      figuresOf(messages.inScope.map(rule), messages.inDomainOos.map(rule), messages.outOfScope.map(rule));
    const t = threshold.threshold;
    add(
      'current (exact dot)',
      apply((m) => (m.best > t ? m.top : -1)),
    );
    // The current rule's own trade-off: the same single threshold, raised (is an idea more than a
    // higher threshold?).
    for (const raise of [0.005, 0.01, 0.015, 0.02, 0.03])
      add(
        `threshold + ${raise}`,
        apply((m) => (m.best > t + raise ? m.top : -1)),
      );
    // (a) margin to the runner-up.
    for (const margin of margins)
      add(
        `(a) margin ${margin}`,
        apply((m) => (m.best > t && m.best - m.second >= margin ? m.top : -1)),
      );

    // (b) per-node thresholds from the chunks: nearest other chunk of the same intent.
    const ownNearest: number[][] = kept.map(() => []);
    const otherNearest: number[] = [];
    for (let c = 0; c < chunks.length; c++) {
      const perIntent = bestPerIntent(chunks[c]!, chunks, chunkIntent, 10, c);
      ownNearest[chunkIntent[c]!]!.push(perIntent[chunkIntent[c]!]!);
      otherNearest.push(score(perIntent.map((v, k) => (k === chunkIntent[c] ? -Infinity : v))).best);
    }
    for (const keep of perNodeKeeps) {
      const perNode = ownNearest.map((values) => Math.max(t, quantileKeeping(values, keep)));
      const perNodeOnly = ownNearest.map((values) => quantileKeeping(values, keep));
      add(
        `(b) per-node keep ${keep}, at least the node's`,
        apply((m) => (m.best > perNode[m.top]! ? m.top : -1)),
      );
      add(
        `(b) per-node keep ${keep}, alone`,
        apply((m) => (m.best > perNodeOnly[m.top]! ? m.top : -1)),
      );
    }

    // (c) an "unknown intent" threshold learned from the tree's own chunks: 2 intents at a time
    // pretend to be unknown (scored against the other intents' chunks); the others' chunks, scored
    // against the rest (themselves left out), play in-scope messages.
    const unknownBest: number[] = [];
    const knownBest: number[] = [];
    const knownMargin: number[] = [];
    const unknownMargin: number[] = [];
    for (let pair = 0; pair < 5; pair++) {
      const hidden = new Set([2 * pair, 2 * pair + 1]);
      const include = (c: number) => !hidden.has(chunkIntent[c]!);
      for (let c = 0; c < chunks.length; c++) {
        const s = score(bestPerIntent(chunks[c]!, chunks, chunkIntent, 10, c, include));
        if (hidden.has(chunkIntent[c]!)) {
          unknownBest.push(s.best);
          unknownMargin.push(s.best - s.second);
        } else if (c % 5 === pair) {
          knownBest.push(s.best);
          knownMargin.push(s.best - s.second);
        }
      }
    }
    for (const target of unknownTargets) {
      // The highest threshold that keeps `target` of the in-scope stand-ins.
      const learned = Math.max(t, quantileKeeping(knownBest, target));
      add(
        `(c) unknown-intent threshold keeping ${target} of held-out chunks`,
        apply((m) => (m.best > learned ? m.top : -1)),
      );
    }
    // (c) the threshold of best balanced accuracy between the two groups.
    let bestSplit = { threshold: t, accuracy: 0 };
    for (const candidate of [...new Set([...unknownBest, ...knownBest])].sort((a, b) => a - b)) {
      const kept_ = knownBest.filter((v) => v > candidate).length / knownBest.length;
      const declined = unknownBest.filter((v) => v <= candidate).length / unknownBest.length;
      if ((kept_ + declined) / 2 > bestSplit.accuracy)
        bestSplit = { threshold: candidate, accuracy: (kept_ + declined) / 2 };
    }
    add(
      '(c) unknown-intent threshold, best balanced accuracy',
      apply((m) => (m.best > Math.max(t, bestSplit.threshold) ? m.top : -1)),
    );
    trees.push({
      domain,
      split,
      kept,
      unknown: [...unknown],
      chunks: chunkTexts.length,
      threshold: t,
      learnedBalanced: bestSplit.threshold,
      space: status.detail,
      current,
    });
    console.log(
      `${domain}/${split}: threshold ${t.toFixed(3)}, in-scope right ${current.inScopeRight.toFixed(3)} answered ${current.inScopeAnswered.toFixed(3)}, in-domain OOS declined ${current.inDomainOosDeclined.toFixed(3)}, OOS declined ${current.outOfScopeDeclined.toFixed(3)}`,
    );
  }
}

const mean = (list: Figures[], key: keyof Figures) =>
  Math.round((list.reduce((sum, item) => sum + item[key], 0) / list.length) * 1000) / 1000;
const summary = Object.entries(rows).map(([rule, list]) => ({
  rule,
  trees: list.length,
  inScopeRight: mean(list, 'inScopeRight'),
  inScopeAnswered: mean(list, 'inScopeAnswered'),
  inDomainOosDeclined: mean(list, 'inDomainOosDeclined'),
  outOfScopeDeclined: mean(list, 'outOfScopeDeclined'),
}));
console.table(summary);
if (!process.argv.includes('--no-write'))
  writeFileSync(
    fileURLToPath(
      new URL(
        `in-domain-oos-results${base === 'use+hashed' ? '' : `-${base.replace(/\+/g, '-')}`}.json`,
        import.meta.url,
      ),
    ),
    `${JSON.stringify({ date: new Date().toISOString(), splits, folds, domains, summary, trees }, null, 2)}\n`,
  );
