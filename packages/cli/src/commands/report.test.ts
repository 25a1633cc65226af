import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptySessionRecord } from '@treeagent/core/adapter';
import { ANALYTICS_EXPECTED, ANALYTICS_FIXTURE } from '@treeagent/core/conformance';
import { openSqlite } from '@treeagent/sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../main.js';
import { isMissingPackage, POSTGRES_PACKAGE } from '../postgres-adapter.js';
import { capture } from '../test-support/capture.js';

const dir = mkdtempSync(join(tmpdir(), 'treeagent-report-'));
const data = join(dir, 'data');
const range = ['--from', ANALYTICS_EXPECTED.filter.from, '--to', ANALYTICS_EXPECTED.filter.to];

/** The generated conversations with known answers, written to the data directory's SQLite file. */
beforeAll(async () => {
  const stores = openSqlite(data);
  for (const conversation of ANALYTICS_FIXTURE) {
    if (conversation.failed) {
      await stores.sessionStore.recordFacts(conversation.facts);
      continue;
    }
    let record = emptySessionRecord(conversation.sessionId, conversation.facts[0]!.at);
    for (const fact of conversation.facts) {
      const next = { ...record, version: record.version + 1, turn: fact.turn };
      await stores.sessionStore.commit({
        record: next,
        history: [],
        expectedVersion: record.version,
        facts: [fact],
      });
      record = next;
    }
  }
  await stores.sessionStore.analytics().label('s2', 2, 'parking', '2026-11-04T00:00:00.000Z');
  await stores.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('treeagent report', () => {
  test('the terminal summary shows the known figures', async () => {
    const output = capture();
    expect(await main(['report', '--data', data, ...range], output)).toBe(0);
    const text = output.out.join('\n');
    expect(text).toContain('conversations     6');
    expect(text).toContain('turns             10');
    expect(text).toContain(
      'containment       33.3% (2 contained, 3 abandoned after a failure, 1 handed off)',
    );
    expect(text).toContain('no match          10.0% (1)');
    expect(text).toContain(
      'latency           p50 50 ms, p90 90 ms, p95 100 ms, p99 100 ms (mean 55, max 100)',
    );
    expect(text).toContain('at #1: #5 vs #6, 2 turns, mean margin 0.02');
  });

  test('--json is the report', async () => {
    const output = capture();
    expect(await main(['report', '--data', data, ...range, '--json', '--version', 'v2'], output)).toBe(0);
    const report = JSON.parse(output.out.join('\n'));
    expect(report.totals).toMatchObject(ANALYTICS_EXPECTED.v2);
  });

  test('--html writes one self-contained file with the charts and Chart.js inlined', async () => {
    const file = join(dir, 'report.html');
    expect(await main(['report', '--data', data, ...range, '--html', file], capture())).toBe(0);
    const html = readFileSync(file, 'utf8');
    expect(html).toContain('<canvas id="per-day">');
    expect(html).toContain('new Chart(');
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html.length).toBeGreaterThan(100_000);
  });

  test('--compare shows two versions side by side; --labels exports the review labels for eval', async () => {
    const output = capture();
    expect(await main(['report', '--data', data, ...range, '--compare', 'v1', 'v2'], output)).toBe(0);
    expect(output.out.join('\n')).toMatch(/containment\s+66\.7%\s+0\.0%\s+-66\.7 pts/);
    const labels = join(dir, 'labels.tsv');
    expect(await main(['report', '--data', data, '--labels', labels], capture())).toBe(0);
    expect(readFileSync(labels, 'utf8')).toBe('dove posso parcheggiare?\tparking\n');
  });

  test('--experiment counts every conversation of each version, not only the last 30 days', async () => {
    // The fixture's days are more than 30 days before today's.
    const output = capture();
    expect(await main(['report', '--data', data, '--experiment', 'v1', 'v2', '--json'], output)).toBe(0);
    const { control, treatment } = JSON.parse(output.out.join('\n'));
    const expected = (version: 'v1' | 'v2') =>
      ANALYTICS_FIXTURE.filter((conversation) =>
        conversation.facts.some((fact) => fact.treeVersion === version),
      ).length;
    expect([control.conversations, treatment.conversations]).toEqual([expected('v1'), expected('v2')]);
    expect(control.conversations).toBeGreaterThan(0);
  });

  test('a bad day is a usage error that says the format', async () => {
    const output = capture();
    expect(await main(['report', '--data', data, '--from', 'ieri'], output)).toBe(2);
    expect(output.err.join('\n')).toMatch(/YYYY-MM-DD/);
  });
});

describe('the optional PostgreSQL adapter (scripts/pack-install-test.ts runs --database-url without it)', () => {
  test('is a declared optional peer dependency of the CLI', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(manifest.peerDependencies[POSTGRES_PACKAGE]).toBeDefined();
    expect(manifest.peerDependenciesMeta[POSTGRES_PACKAGE]).toEqual({ optional: true });
    expect(manifest.dependencies[POSTGRES_PACKAGE]).toBeUndefined();
  });

  test('a missing package is told apart from a failure inside an installed one', async () => {
    const missing = await import(/* @vite-ignore */ `${POSTGRES_PACKAGE}-not-installed`).catch((e) => e);
    expect(isMissingPackage(missing, `${POSTGRES_PACKAGE}-not-installed`)).toBe(true);
    expect(isMissingPackage(missing, POSTGRES_PACKAGE)).toBe(false);
    const inside = Object.assign(
      new Error("Cannot find package 'pg' imported from /x/node_modules/@treeagent/postgres/dist/sql.js"),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
    expect(isMissingPackage(inside, POSTGRES_PACKAGE)).toBe(false);
  });
});
