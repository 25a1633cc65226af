import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Smoke test of the performance suite: `bench/run.ts --quick` (tiny sizes) must still run end to end
 * and write its report. It checks that the benchmarks work, not their figures. The first run on a
 * fresh checkout installs the LangGraph peer in bench/node_modules (about a minute, building
 * better-sqlite3), hence the long timeout; later runs take a few seconds.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const tsx = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'tsx.cmd' : 'tsx');

describe('bench/run.ts --quick', () => {
  it('runs every benchmark and writes the report', { timeout: 600_000 }, () => {
    execFileSync(tsx, ['bench/run.ts', '--quick'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      // PostgreSQL stays out of the smoke run even where the test database is configured.
      env: { ...process.env, TREEAGENT_TEST_DATABASE_URL: '' },
      timeout: 590_000,
    });
    const jsonFile = join(root, 'bench', '.cache', 'quick-results.json');
    expect(existsSync(jsonFile)).toBe(true);
    const results = JSON.parse(readFileSync(jsonFile, 'utf8'));
    expect(results.failures).toEqual([]);
    expect(Object.keys(results.sections).sort()).toEqual([
      'engine-overhead',
      'explore-agreement',
      'explore-ann',
      'explore-scaling',
      'history-growth',
      'server-load',
      'startup',
      'vector-store-explore',
    ]);
    // The approximate-nearest-neighbour index was built and searched (usearch, bench/node_modules).
    for (const row of results.sections['explore-ann'].rows) expect(row.byK.length).toBeGreaterThan(0);
    // PostgreSQL is left out: the pgvector exploration says so instead of measuring.
    expect(results.sections['vector-store-explore']).toBeNull();
    // Both frameworks routed every checked message to the same leaf.
    for (const row of results.sections['engine-overhead'].rows) {
      expect(row.agreement.same).toBe(row.agreement.checked);
    }
    // One similarity pass per direction, whatever the number of hops.
    for (const row of results.sections['explore-scaling'].rows) {
      expect(row.passesPerStep).toBe(1);
      expect(row.hopsPerStep).toBeGreaterThan(1);
      // The limit is the compiled C read, or the report says why not (no gcc) and uses JavaScript's.
      if (row.limitSource === 'C') expect(row.c.sum.median).toBeGreaterThan(0);
      else expect(row.c.unavailable).toMatch(/gcc/);
    }
  });
});
