import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { checkExample, markdownExample } from '../../scripts/readme-example.js';

/**
 * The first TypeScript example of each README runs as written, and each `console.log(...)` prints
 * what its trailing comment says, so the examples cannot drift from the code. The READMEs whose
 * examples need a service or a fixture (a model, a server, PostgreSQL) run in their package's
 * `readme.test.ts` (scripts/readme-coverage.test.ts checks that every package README is run).
 */
const readmes = [
  'README.md',
  'packages/core/README.md',
  'packages/embedder-use/README.md',
  'packages/components/README.md',
  'docs/forms.md',
];
const scratch = join(fileURLToPath(new URL('.', import.meta.url)), `.docs-${process.pid}`);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('README examples', () => {
  test.each(readmes)('%s', async (readme) => {
    const example = markdownExample(readme);
    const name = `${readme.replaceAll('/', '-')}.ts`;
    expect(await checkExample(example, { directory: scratch, name })).toEqual([]);
  });
});

/** Sections of docs/ that start with a working example: the first TypeScript block after the heading. */
const sections = [
  { file: 'docs/models.md', heading: '## Tools' },
  { file: 'docs/multilingual-trees.md', heading: '## The API' },
];

describe('docs section examples', () => {
  test.each(sections)('$file $heading', async ({ file, heading }) => {
    const example = markdownExample(file, { heading });
    const name = `${`${file}-${heading}`.replaceAll(/[^A-Za-z0-9]+/g, '-')}.ts`;
    expect(await checkExample(example, { directory: scratch, name })).toEqual([]);
  });
});
