import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Embedder, EmbeddingCache } from '../../packages/core/src/adapter/index.js';
import { defineTree, FileEmbeddingCache, HashedEmbedder, TreeAgent } from '../../packages/core/src/index.js';
import { openSqlite } from '../../packages/sqlite/src/index.js';
import { routingNodes } from './trees.js';
import { normalizeInPlace, PrecomputedEmbedder, random } from './vectors.js';

export interface StartupRun {
  definitionMs: number;
  loadMs: number;
  chunks: number;
  dimensions: number;
  cacheBytes: number;
}

/**
 * One start-up, in a fresh process (run by `bench/startup.ts`): define the tree, then open the
 * embedding cache and load the agent (`agent.ready()`: every chunk embedded or read from the cache,
 * packed into the index). */
export interface StartupConfig {
  chunks: number;
  embedder: 'hashed' | 'minilm-like';
  cache: 'memory' | 'sqlite' | 'file';
  dir: string;
}

const WORDS = buildVocabulary();

/** A deterministic pseudo-sentence of 8–15 words for chunk `g`. */
export function sentence(g: number): string {
  const next = random(0x1234567 ^ Math.imul(g + 1, 0x9e3779b1));
  const length = 8 + Math.floor(next() * 8);
  const words: string[] = [];
  for (let i = 0; i < length; i++) words.push(WORDS[Math.floor(next() * WORDS.length)]!);
  return `${words.join(' ')} ${g}`;
}

function buildVocabulary(): string[] {
  const onsets = [
    'b',
    'c',
    'd',
    'f',
    'g',
    'l',
    'm',
    'n',
    'p',
    'r',
    's',
    't',
    'v',
    'z',
    'ch',
    'st',
    'tr',
    'pr',
  ];
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ia', 'io'];
  const next = random(42);
  const words = new Set<string>();
  while (words.size < 2000) {
    const syllables = 1 + Math.floor(next() * 3);
    let word = '';
    for (let s = 0; s < syllables; s++) {
      word += onsets[Math.floor(next() * onsets.length)]! + vowels[Math.floor(next() * vowels.length)]!;
    }
    words.add(word);
  }
  return [...words];
}

/** A 384-dimension embedder standing for a small sentence model: a vector derived from the text's hash. */
function minilmLike(): Embedder {
  return new PrecomputedEmbedder({
    dimensions: 384,
    id: 'bench-minilm-like:d=384',
    generate: (texts) =>
      texts.map((text) => {
        let h = 0x811c9dc5;
        for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
        const next = random(h >>> 0);
        const vector = new Float32Array(384);
        for (let i = 0; i < 384; i++) vector[i] = next() * 2 - 1;
        return normalizeInPlace(vector);
      }),
  });
}

/** In a fresh process (see `inChild`): one start-up. */
export async function startupChild(config: StartupConfig): Promise<StartupRun> {
  const leaves = config.chunks / 10;
  let started = performance.now();
  const { nodes } = routingNodes({
    levels: [Math.max(1, leaves / 100)],
    leaves,
    chunksPerLeaf: 10,
    text: sentence,
  });
  const tree = defineTree({ name: `startup-${config.chunks}`, nodes });
  const definitionMs = performance.now() - started;

  started = performance.now();
  let cache: EmbeddingCache | undefined;
  let close = async () => {};
  let file: string | null = null;
  if (config.cache === 'sqlite') {
    const stores = openSqlite(config.dir, { synchronous: 'NORMAL' });
    cache = stores.embeddingCache;
    close = () => stores.close();
    file = stores.file;
  } else if (config.cache === 'file') {
    cache = new FileEmbeddingCache(config.dir);
  }
  const embedder = config.embedder === 'hashed' ? new HashedEmbedder() : minilmLike();
  const agent = new TreeAgent({ tree, embedder, ...(cache ? { embeddingCache: cache } : {}) });
  await agent.ready();
  const loadMs = performance.now() - started;
  await close();
  const cacheBytes = file ? statSync(file).size : config.cache === 'file' ? directorySize(config.dir) : 0;
  return {
    definitionMs,
    loadMs,
    chunks: tree.chunks.length,
    dimensions: embedder.dimensions ?? 0,
    cacheBytes,
  };
}

function directorySize(dir: string): number {
  try {
    return readdirSync(dir).reduce((total, name) => total + statSync(join(dir, name)).size, 0);
  } catch {
    return 0;
  }
}
