import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll } from 'vitest';
import { markdownExample } from '../../../scripts/readme-example.js';

/**
 * The README's example as a user lays it out: its YAML in `conversations/orders.yaml`, its test
 * file `conversations.test.ts` beside a `tree.ts` (here the demo's bike-shop tree), run from the
 * project folder. Importing that test file declares its tests in this one, so the README's
 * conversation runs as tests of this file, and fails here if the README or the demo drift.
 */
const README = 'packages/testing/README.md';
const project = join(import.meta.dirname, `.docs-${process.pid}`);
afterAll(() => rmSync(project, { recursive: true, force: true }));

mkdirSync(join(project, 'conversations'), { recursive: true });
writeFileSync(join(project, 'conversations/orders.yaml'), markdownExample(README, { lang: 'yaml' }).code);
writeFileSync(
  join(project, 'tree.ts'),
  `export { bikeShopTree } from ${JSON.stringify(resolve(import.meta.dirname, '../../../examples/src/bike-shop/tree.js'))};\n`,
);
writeFileSync(join(project, 'conversations.test.ts'), markdownExample(README).code);
const previous = process.cwd();
process.chdir(project);
try {
  await import(join(project, 'conversations.test.ts'));
} finally {
  process.chdir(previous);
}
