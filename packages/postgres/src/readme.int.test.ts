import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkExample, markdownExample } from '../../../scripts/readme-example.js';
import { requireDatabase, TEST_DATABASE_URL } from './test-support/database.js';

const directory = join(import.meta.dirname, `.docs-${process.pid}`);
beforeAll(() => requireDatabase());
afterAll(() => rmSync(directory, { recursive: true, force: true }));

test('the README example runs as written against PostgreSQL with pgvector (DATABASE_URL)', async () => {
  // As written: its tables in the schema "public" of the test database, created on first use.
  const options = { directory, name: 'postgres.ts', env: { DATABASE_URL: TEST_DATABASE_URL } };
  expect(await checkExample(markdownExample('packages/postgres/README.md'), options)).toEqual([]);
});
