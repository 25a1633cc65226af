import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { main } from '../main.js';
import { capture } from '../test-support/capture.js';

const bikeShop = fileURLToPath(new URL('../../../../examples/src/bike-shop/tree.ts', import.meta.url));
const utterances = fileURLToPath(
  new URL('../../../../examples/src/bike-shop/utterances.tsv', import.meta.url),
);
// Inside the package (gitignored `.scratch-*`), removed after the tests.
const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('treeagent fit', () => {
  test('fits the bike-shop tree, writes the fit and prints routing unfitted vs fitted', async () => {
    const out = capture();
    const { out: lines, err: errors } = out;
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
    // The bike shop's chunks are few: the PCA is exact (at most exactPcaMaxChunks), and says so.
    expect(text).toMatch(
      /^fitted \d+ chunks in \d+ classes on \S+ → \d+ dimensions in [\d.]+ s \(PCA: exact, \d+ dimensions\)$/m,
    );
    expect((saved.pca as { method: string }).method).toBe('exact');
    expect(text).toContain(`written ${file}`);
    expect(text).toMatch(/^embedder id: fitted\(/m);
    expect(text).toMatch(
      /^unfitted accuracy [\d.]+%, out-of-scope recall [\d.]+%; at the operating point \(threshold -?[\d.]+, [\d.]+% kept\): in-scope right [\d.]+%, out-of-scope recall [\d.]+%$/m,
    );
    expect(text).toMatch(
      /^fitted {3}accuracy [\d.]+%, out-of-scope recall [\d.]+%; at the operating point \(threshold -?[\d.]+, [\d.]+% kept\): in-scope right [\d.]+%, out-of-scope recall [\d.]+%$/m,
    );
  }, 60_000);

  test('on a tree below AUTO_FIT_MIN_CHUNKS it says the fit is not used as it is, and how to use it', async () => {
    const tree = join(scratch, 'small.json');
    const intent = (id: number, name: string, chunks: string[]) => ({
      id,
      parent: 2,
      type: 'emit',
      name,
      chunks,
      emit: { message: { type: 'static', content: name } },
    });
    writeFileSync(
      tree,
      JSON.stringify({
        version: 1,
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, parent: 1, type: 'agent', isPrimary: true },
          intent(3, 'hours', ['opening hours', 'when are you open', 'what time do you close']),
          intent(4, 'prices', ['how much is it', 'price list', 'what does it cost']),
        ],
      }),
    );
    const out = capture();
    expect(await main(['fit', tree, '--data', join(scratch, 'small-data')], out)).toBe(0);
    const text = out.lines.join('\n');
    expect(text).toContain(`written ${join(scratch, 'small.fit.json')}`);
    expect(text).toMatch(
      /not used as it is: the tree has 6 exploration chunks, fewer than 100, so dev, serve, chat and eval route it unfitted/,
    );
    expect(text).toContain('export const fit = true');
    expect(text).not.toContain('route in this fitted space from the first message');
  }, 60_000);

  test('lint warns about the nodes of a fitted tree with too few chunks to fit', async () => {
    const module = join(scratch, 'lonely-tree.ts');
    writeFileSync(
      module,
      `import { defineTree, HashedEmbedder } from '@treeagent/core';
import { FittedEmbedder } from '@treeagent/fit';
const tree = defineTree({
  name: 'lonely',
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    { id: 3, type: 'emit', parent: 2, name: 'orari', chunks: ['a che ora aprite', 'orari di apertura', 'siete aperti domenica'], emit: { message: 'Dalle 9 alle 19.' } },
    { id: 4, type: 'emit', parent: 2, name: 'prezzi', chunks: ['quanto costa', 'listino prezzi', 'prezzo del tagliando'], emit: { message: 'Il listino è sul sito.' } },
    { id: 5, type: 'emit', parent: 2, name: 'reclami', chunks: ['voglio fare un reclamo'], emit: { message: 'Mi dispiace.' } },
  ],
});
export default tree;
export const embedder = await FittedEmbedder.fit(tree, new HashedEmbedder());
`,
    );
    const out = capture();
    const lines = out.lines;
    expect(await main(['lint', module], out)).toBe(0);
    const text = lines.join('\n');
    expect(text).toMatch(
      /^warning \[too-few-chunks-to-fit\] node 5: node 5 \("reclami"\) has 1 chunk\(s\), fewer than the fit's minChunksPerClass \(2\).*falls back to the base space.* Fix: Give it at least 2 chunks/m,
    );
    expect(await main(['lint', module, '--strict'], out)).toBe(1);
  }, 60_000);
});
