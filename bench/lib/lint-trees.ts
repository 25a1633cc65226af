import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TreeJSON } from '../../packages/core/src/document.js';
import { seededRandom } from '../../packages/core/src/test-support/seeded-random.js';

/**
 * Large trees for `lint-scaling.ts`, as the JSON `treeagent lint` reads. Both are deterministic
 * (seeded by the node count) and put about one node in 500 on a chunk another subtree already has:
 * a true ambiguous pair lint must report.
 */

/** Mulberry32 (core's test generator): the same tree on every run. */
export { seededRandom };

const emit = { message: { type: 'static', content: 'ok' } };
type JsonNode = TreeJSON['nodes'][number];

/**
 * Topics of 25 nodes under one agent, one chunk per node: a phrase of 4–7 words from a 600-word
 * vocabulary of two-letter syllables (the tree of the first measurements; its words share many
 * character n-grams, so many pairs are moderately similar).
 */
export function syllableTree(nodes: number): TreeJSON {
  const next = seededRandom(nodes);
  const syllables = ['ba', 'co', 'di', 'fe', 'ga', 'li', 'mo', 'nu', 'pe', 'ra', 'si', 'to', 'vu', 'ze'];
  const vocabulary = new Set<string>();
  while (vocabulary.size < 600) {
    const length = 2 + Math.floor(next() * 3);
    let word = '';
    for (let i = 0; i < length; i++) word += syllables[Math.floor(next() * syllables.length)];
    vocabulary.add(word);
  }
  const words = [...vocabulary];
  const phrase = () =>
    Array.from({ length: 4 + Math.floor(next() * 4) }, () => words[Math.floor(next() * words.length)]).join(
      ' ',
    );
  const out: JsonNode[] = [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
  ];
  const phrases: string[] = [];
  let topic = 0;
  for (let id = 3; out.length < nodes; id++) {
    const isTopic = (id - 3) % 25 === 0;
    if (isTopic) topic = id;
    const text = id % 500 === 0 && phrases.length > 100 ? phrases[Math.floor(next() * 50)]! : phrase();
    phrases.push(text);
    out.push({ id, type: 'emit', parent: isTopic ? 2 : topic, chunks: [text], emit } as JsonNode);
  }
  return { name: `lint-syllables-${nodes}`, nodes: out };
}

/** Where the CLINC150 development splits live (`CLINC150_DIR` overrides), as in `routing/clinc150.ts`. */
const CLINC150_DIR =
  process.env.CLINC150_DIR ?? fileURLToPath(new URL('../../../shared/datasets/clinc150/', import.meta.url));

/** Whether the English tree can be built (it needs the CLINC150 utterances). */
export function hasEnglishCorpus(): boolean {
  return existsSync(`${CLINC150_DIR}/dev.json`) && existsSync(`${CLINC150_DIR}/domains.json`);
}

/**
 * Questions that start like a real CLINC150 utterance of an intent (its first 2–4 words) and go on
 * by a word-bigram chain learnt from all 18,000 utterances, 6–16 words long.
 */
function clincQuestions(next: () => number) {
  const dev = JSON.parse(readFileSync(`${CLINC150_DIR}/dev.json`, 'utf8')) as {
    train: [string, string][];
    val: [string, string][];
  };
  const domains = JSON.parse(readFileSync(`${CLINC150_DIR}/domains.json`, 'utf8')) as Record<
    string,
    string[]
  >;
  const byIntent = new Map<string, string[][]>();
  const following = new Map<string, string[]>();
  for (const [text, intent] of [...dev.train, ...dev.val]) {
    const words = text.split(/\s+/).filter(Boolean);
    if (!byIntent.has(intent)) byIntent.set(intent, []);
    byIntent.get(intent)!.push(words);
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      if (!following.has(word)) following.set(word, []);
      following.get(word)!.push(words[i + 1] ?? '');
    }
  }
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const question = (intent: string): string => {
    const opening = pick(byIntent.get(intent)!);
    const words = opening.slice(0, 2 + Math.floor(next() * 3));
    const length = 6 + Math.floor(next() * 11);
    while (words.length < length) {
      // A sentence that ends before 6 words goes on with a word that follows the last one elsewhere.
      const after = following.get(words[words.length - 1]!) ?? [''];
      let word = pick(after);
      for (let tries = 0; !word && words.length < 6 && tries < 20; tries++) word = pick(after);
      if (!word) break;
      words.push(word);
    }
    return words.join(' ');
  };
  return { domains, intents: [...byIntent.keys()], question };
}

/**
 * A support-desk tree in English: agent → the 10 CLINC150 domains → their 150 intents → groups of
 * up to 25 question leaves. Each leaf has one chunk (three in ten have two): a question that starts
 * like a real CLINC150 utterance of its intent (its first 2–4 words) and goes on by a word-bigram
 * chain learnt from all 18,000 utterances, 6–16 words long. So the chunks have English word
 * frequencies (the same function words everywhere), siblings share their topic's openings, and
 * almost every chunk is a different sentence.
 */
export function englishTree(nodes: number): TreeJSON {
  const next = seededRandom(nodes);
  const { domains, question } = clincQuestions(next);
  const out: JsonNode[] = [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true, name: 'support' },
  ];
  let id = 3;
  const intents: { id: number; intent: string }[] = [];
  for (const [domain, names] of Object.entries(domains)) {
    const domainId = id++;
    out.push({ id: domainId, type: 'empty', parent: 2, name: domain } as JsonNode);
    for (const intent of names) {
      intents.push({ id: id, intent });
      out.push({ id: id++, type: 'empty', parent: domainId, name: intent } as JsonNode);
    }
  }
  const chunks: string[] = [];
  for (let leaf = 0; out.length < nodes; leaf++) {
    const { id: intentId, intent } = intents[leaf % intents.length]!;
    const round = Math.floor(leaf / intents.length);
    // Groups of 25 leaves under each intent.
    let parent = intentId;
    if (round % 25 === 0) {
      out.push({ id, type: 'empty', parent: intentId } as JsonNode);
      (intents[leaf % intents.length] as { group?: number }).group = id++;
      if (out.length >= nodes) break;
    }
    parent = (intents[leaf % intents.length] as { group?: number }).group!;
    const texts =
      id % 500 === 0 && chunks.length > 100
        ? [chunks[Math.floor(next() * 50)]!]
        : next() < 0.3
          ? [question(intent), question(intent)]
          : [question(intent)];
    chunks.push(...texts);
    out.push({ id: id++, type: 'emit', parent, chunks: texts, emit } as JsonNode);
  }
  return { name: `lint-english-${nodes}`, nodes: out };
}

/**
 * A deep tree of the same English questions: ten conversations under the agent, each a chain of
 * follow-up questions one below the other (a node's only child is the next step), so depth grows
 * with the tree (2,000 levels at 20,002 nodes). Three nodes in ten have two chunks, and about one in
 * 500 repeats a chunk of another chain. This is the shape whose lint took half a minute at 20,002
 * nodes: every node is a routing node whose subtree holds the rest of its chain, so any work done
 * per node over its subtree, or per node over its ancestors, is quadratic.
 */
export function deepEnglishTree(nodes: number): TreeJSON {
  const next = seededRandom(nodes + 1);
  const { intents, question } = clincQuestions(next);
  const CHAINS = 10;
  const out: JsonNode[] = [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true, name: 'support' },
  ];
  const chunks: string[] = [];
  for (let id = 3; out.length < nodes; id++) {
    const chain = (id - 3) % CHAINS;
    const parent = id - 3 < CHAINS ? 2 : id - CHAINS;
    const intent = intents[(chain * 15 + Math.floor((id - 3) / CHAINS / 40)) % intents.length]!;
    const texts =
      id % 500 === 0 && chunks.length > 100
        ? [chunks[Math.floor(next() * 50)]!]
        : next() < 0.3
          ? [question(intent), question(intent)]
          : [question(intent)];
    chunks.push(...texts);
    out.push({ id, type: 'emit', parent, chunks: texts, emit } as JsonNode);
  }
  return { name: `lint-deep-english-${nodes}`, nodes: out };
}
