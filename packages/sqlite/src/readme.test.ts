import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { checkExample, markdownExample } from '../../../scripts/readme-example.js';

const cwd = mkdtempSync(join(tmpdir(), 'treeagent-sqlite-readme-'));
const directory = join(import.meta.dirname, `.docs-${process.pid}`);
afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
  rmSync(directory, { recursive: true, force: true });
});

test('the README example runs as written, in a fresh working directory, and again on the same file', async () => {
  const example = markdownExample('packages/sqlite/README.md');
  expect(await checkExample(example, { directory, name: 'first-run.ts', cwd })).toEqual([]);
  // "run this again and it says 2": the session was read back from .data/treeagent.db.
  const again = { ...example, expected: ['Hello! Visit number 2.'] };
  expect(await checkExample(again, { directory, name: 'second-run.ts', cwd })).toEqual([]);
});
