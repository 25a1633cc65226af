import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { checkExample, markdownExample } from '../../../scripts/readme-example.js';

const directory = join(import.meta.dirname, `.docs-${process.pid}`);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

test('the README example runs as written', async () => {
  expect(
    await checkExample(markdownExample('packages/channels/README.md'), { directory, name: 'readme.ts' }),
  ).toEqual([]);
});
