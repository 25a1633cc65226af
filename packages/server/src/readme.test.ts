import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { checkExample, markdownExample } from '../../../scripts/readme-example.js';

const directory = join(import.meta.dirname, `.docs-${process.pid}`);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

test('the README example serves, answers its client, and stops on SIGTERM', async () => {
  // PORT=0: any free port, so the test never collides with a server already on 3000.
  const options = { directory, name: 'serve.ts', env: { PORT: '0' }, sigterm: true };
  expect(await checkExample(markdownExample('packages/server/README.md'), options)).toEqual([]);
});
