import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  requireDatabase,
  TEST_DATABASE_URL,
  testSchema,
} from '../../../postgres/src/test-support/database.js';
import type { Output } from '../output.js';
import { writeClusterFiles } from '../test-support/cluster.js';
import { helpDeskState, useHelpDesk, writeHelpDeskOperators } from '../test-support/help-desk.js';
import { startServe } from './serve.js';

const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-help-desk-pg-', import.meta.url)));
const { schema, drop } = testSchema('help_desk');
const quiet: Output = { log: () => undefined, write: () => undefined, error: () => undefined };
beforeAll(() => requireDatabase());
afterAll(async () => {
  await drop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('treeagent serve --database-url: the help desk in PostgreSQL', () => {
  it('a canned response and a CSAT rating made on one process are seen by another, and survive a restart', async () => {
    const files = await writeClusterFiles(scratch);
    const operators = await writeHelpDeskOperators(scratch);
    const options = (name: string) => ({
      port: '0',
      data: join(scratch, name),
      operators,
      databaseUrl: TEST_DATABASE_URL,
      schema,
    });
    const first = await startServe(files.tree, options('a'), quiet);
    const second = await startServe(files.tree, options('b'), quiet);
    const expected = { count: 1, average: 4, comments: [{ comment: 'Kind and quick' }] };
    try {
      await useHelpDesk(first.url);
      const seen = await helpDeskState(second.url);
      expect(seen.shortcuts).toEqual(['greet']);
      expect(seen.ratings).toMatchObject(expected);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
    const restarted = await startServe(files.tree, options('a'), quiet);
    try {
      const state = await helpDeskState(restarted.url);
      expect(state.shortcuts).toEqual(['greet']);
      expect(state.ratings).toMatchObject(expected);
    } finally {
      await restarted.close();
    }
  }, 90_000);
});
