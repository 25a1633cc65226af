import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { checkExample, markdownExample } from '../../../scripts/readme-example.js';
import { makeTinyModel } from './test-support/make-tiny-model.js';

const cwd = mkdtempSync(join(tmpdir(), 'treeagent-transformers-readme-'));
const directory = join(import.meta.dirname, `.docs-${process.pid}`);
afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
  rmSync(directory, { recursive: true, force: true });
});

test('the README example runs as written, on a tiny test model in the folder it names', async () => {
  // Not the real MiniLM (no model ships, and the network is off): the tiny BERT-shaped model of
  // test-support, written where the README's modelPath points, read through the same code path.
  await makeTinyModel({ dir: join(cwd, 'models/paraphrase-multilingual-MiniLM-L12-v2') });
  const example = markdownExample('packages/embedder-transformers/README.md');
  expect(await checkExample(example, { directory, name: 'embedder.ts', cwd })).toEqual([]);
});
