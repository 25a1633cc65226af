import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FittedEmbedder } from './fitted-embedder.js';
import { progressLine } from './progress-line.js';
import { syntheticTree, TableEmbedder } from './test-support/synthetic.js';

function recorder(isTTY: boolean) {
  const written: string[] = [];
  return { stream: { isTTY, write: (text: string) => written.push(text) }, written };
}

describe('progressLine', () => {
  test('draws nothing during the first second, then redraws in place on a terminal', () => {
    let clock = 0;
    const { stream, written } = recorder(true);
    const update = progressLine('fitting', { stream, now: () => clock });
    update({ phase: 'embedding', done: 1, total: 4 });
    clock = 999;
    update({ phase: 'pca', done: 2, total: 4 });
    expect(written).toEqual([]);
    clock = 1500;
    update({ phase: 'pca', done: 3, total: 4 });
    update({ phase: 'lda', done: 4, total: 4 });
    expect(written).toEqual([
      '\rfitting [##################------] 75% pca',
      '\rfitting [########################] 100% lda\n',
    ]);
  });

  test('writes one line per quarter when the stream is not a terminal (logs)', () => {
    const { stream, written } = recorder(false);
    const update = progressLine('fitting', { stream, afterMs: 0 });
    for (let done = 1; done <= 20; done++) update({ phase: done < 10 ? 'pca' : 'lda', done, total: 20 });
    expect(written).toEqual([
      'fitting: 5% (pca)\n',
      'fitting: 25% (pca)\n',
      'fitting: 50% (lda)\n',
      'fitting: 75% (lda)\n',
      'fitting: 100% (lda)\n',
    ]);
  });

  test('FittedEmbedder.forTree shows it while it fits, not when it loads the cached fit', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-fit-progress-'));
    try {
      const { stream, written } = recorder(false);
      const options = { cacheDirectory: directory, progress: { stream, afterMs: 0 } };
      await FittedEmbedder.forTree(syntheticTree(), new TableEmbedder(), options);
      expect(written.at(-1)).toMatch(
        /^fitting the embedding space to tree "synthetic" \(120 chunks\): 100% \(lda\)\n$/,
      );
      const lines = written.length;
      await FittedEmbedder.forTree(syntheticTree(), new TableEmbedder(), options);
      expect(written).toHaveLength(lines);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
