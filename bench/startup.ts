import { join } from 'node:path';
import { inChild } from './lib/child.js';
import { type BenchContext, type Section, table } from './lib/report.js';
import type { StartupConfig, StartupRun } from './lib/startup-child.js';
import { bytes, ms, type Stats, summarize, times } from './lib/stats.js';

/**
 * Benchmark 4 — start-up: time to load a tree of 10k chunks in a fresh process, with a cold
 * embedding cache (the real `HashedEmbedder` embeds every chunk) and a warm one (SQLite or file
 * cache filled by a previous start). Each start is its own process, so the JIT is cold as in production.
 */

const CHILD = new URL('./lib/startup-child.ts', import.meta.url).href;

interface Case {
  label: string;
  embedder: StartupConfig['embedder'];
  cache: StartupConfig['cache'];
  /** `cold`: an empty cache (fresh directory each time); `warm`: the cache the matching cold start filled. */
  state: 'cold' | 'warm';
}

const CASES: Case[] = [
  {
    label: 'cold: HashedEmbedder, in-memory cache (nothing persisted)',
    embedder: 'hashed',
    cache: 'memory',
    state: 'cold',
  },
  {
    label: 'cold: HashedEmbedder, empty SQLite cache (filled on the way)',
    embedder: 'hashed',
    cache: 'sqlite',
    state: 'cold',
  },
  {
    label: 'warm: HashedEmbedder vectors from the SQLite cache',
    embedder: 'hashed',
    cache: 'sqlite',
    state: 'warm',
  },
  {
    label: 'cold: HashedEmbedder, empty file cache (filled on the way)',
    embedder: 'hashed',
    cache: 'file',
    state: 'cold',
  },
  {
    label: 'warm: HashedEmbedder vectors from the file cache',
    embedder: 'hashed',
    cache: 'file',
    state: 'warm',
  },
  {
    label: 'warm: 384-d vectors (small sentence model) from the SQLite cache',
    embedder: 'minilm-like',
    cache: 'sqlite',
    state: 'warm',
  },
  { label: 'warm: 384-d vectors from the file cache', embedder: 'minilm-like', cache: 'file', state: 'warm' },
];

interface StartupRow {
  label: string;
  state: Case['state'];
  embedder: Case['embedder'];
  cache: Case['cache'];
  load: Stats;
  definition: Stats;
  dimensions: number;
  cacheBytes: number;
}

export async function startup(context: BenchContext): Promise<Section> {
  const { quick, log, tmp } = context;
  const chunks = quick ? 1_000 : 10_000;
  const repeats = quick ? 1 : 3;
  const cases = quick ? CASES.filter((c) => c.embedder === 'hashed' && c.cache !== 'file') : CASES;
  const runs = new Map<Case, StartupRun[]>(cases.map((c) => [c, []]));
  for (let r = 0; r < repeats; r++) {
    for (const c of cases) {
      // A warm start reads the directory its cold start (same embedder and cache kind) filled in this repeat.
      const dir = join(tmp, `startup-${c.embedder}-${c.cache}-${r}`);
      if (
        c.state === 'warm' &&
        !cases.some((o) => o.state === 'cold' && o.embedder === c.embedder && o.cache === c.cache)
      ) {
        if (r === 0 || !runs.get(c)!.length)
          log(`  filling the ${c.cache} cache with ${c.embedder} vectors…`);
        child({ chunks, embedder: c.embedder, cache: c.cache, dir });
      }
      log(`  ${c.label} (${r + 1}/${repeats})…`);
      runs.get(c)!.push(child({ chunks, embedder: c.embedder, cache: c.cache, dir }));
    }
  }
  const rows: StartupRow[] = cases.map((c) => {
    const list = runs.get(c)!;
    return {
      label: c.label,
      state: c.state,
      embedder: c.embedder,
      cache: c.cache,
      load: summarize(list.map((run) => run.loadMs)),
      definition: summarize(list.map((run) => run.definitionMs)),
      dimensions: list[0]!.dimensions,
      cacheBytes: list[list.length - 1]!.cacheBytes,
    };
  });
  return report(rows, chunks, repeats);
}

function child(config: StartupConfig): StartupRun {
  return inChild<StartupRun>(CHILD, 'startupChild', config);
}

function report(rows: StartupRow[], chunks: number, repeats: number): Section {
  const coldHashed = rows.find(
    (row) => row.state === 'cold' && row.embedder === 'hashed' && row.cache === 'memory',
  );
  const markdown = [
    `A tree of ${chunks.toLocaleString('en')} chunks (pseudo-sentences of 8–15 words), loaded in a fresh process each time; median of ${repeats} starts. “Load” is opening the cache plus \`new TreeAgent(…)\` and \`await agent.ready()\` (every chunk embedded or read from the cache, packed into the index); “definition” is \`defineTree\` of the same tree. \`HashedEmbedder\` makes ${rows.find((row) => row.embedder === 'hashed')?.dimensions ?? 4096}-dimension vectors; the 384-d rows stand for a small sentence model whose cold start would be dominated by the model itself.`,
    '',
    table(
      ['start', 'load median', 'definition median', 'load ÷ cold in-memory', 'cache size'],
      rows.map((row) => [
        row.label,
        ms(row.load.median),
        ms(row.definition.median),
        coldHashed ? times(row.load.median / coldHashed.load.median) : '—',
        row.cache === 'memory' ? '—' : bytes(row.cacheBytes),
      ]),
    ),
  ].join('\n');
  return { id: 'startup', title: '4. Start-up', markdown, data: { chunks, repeats, rows }, goals: [] };
}
