import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { checkExample, markdownExample } from '../../../scripts/readme-example.js';

const cwd = mkdtempSync(join(tmpdir(), 'treeagent-fit-readme-'));
const directory = join(import.meta.dirname, `.docs-${process.pid}`);
afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
  rmSync(directory, { recursive: true, force: true });
});

test('the README example fits the tree, caches the fit in .treeagent/fits and routes with it', async () => {
  const example = markdownExample('packages/fit/README.md');
  expect(await checkExample(example, { directory, name: 'tree.ts', cwd })).toEqual([]);
  expect(existsSync(join(cwd, '.treeagent/fits'))).toBe(true);
});
