import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { main } from '../main.js';
import type { Output } from '../output.js';

const bikeShop = fileURLToPath(new URL('../../../../examples/src/bike-shop/tree.ts', import.meta.url));
const utterances = fileURLToPath(
  new URL('../../../../examples/src/bike-shop/utterances.tsv', import.meta.url),
);
// Inside the package (gitignored `.scratch-*`), removed after the tests.
const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('treeagent fit', () => {
  test('fits the bike-shop tree, writes the fit and prints routing unfitted vs fitted', async () => {
    const lines: string[] = [];
    const errors: string[] = [];
    const out: Output = {
      log: (line) => lines.push(line),
      write: (text) => lines.push(text),
      error: (line) => errors.push(line),
    };
    const file = join(scratch, 'bike-shop.fit.json');
    const code = await main(
      ['fit', bikeShop, '--utterances', utterances, '--out', file, '--data', join(scratch, 'data')],
      out,
    );
    expect(errors).toEqual([]);
    expect(code).toBe(0);
    expect(existsSync(file)).toBe(true);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(typeof saved).toBe('object');
    const text = lines.join('\n');
    expect(text).toMatch(/^fitted \d+ chunks in \d+ classes on \S+ → \d+ dimensions in [\d.]+ s$/m);
    expect(text).toContain(`written ${file}`);
    expect(text).toMatch(/^embedder id: fitted\(/m);
    expect(text).toMatch(
      /^unfitted accuracy [\d.]+%, out-of-scope recall [\d.]+%; at the operating point \(threshold -?[\d.]+, [\d.]+% kept\): in-scope right [\d.]+%, out-of-scope recall [\d.]+%$/m,
    );
    expect(text).toMatch(
      /^fitted {3}accuracy [\d.]+%, out-of-scope recall [\d.]+%; at the operating point \(threshold -?[\d.]+, [\d.]+% kept\): in-scope right [\d.]+%, out-of-scope recall [\d.]+%$/m,
    );
  }, 60_000);
});
