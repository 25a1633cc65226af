import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Output } from '../output.js';
import { writeClusterFiles } from '../test-support/cluster.js';
import { helpDeskState, useHelpDesk, writeHelpDeskOperators } from '../test-support/help-desk.js';
import { startServe } from './serve.js';

const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-help-desk-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const quiet: Output = { log: () => undefined, write: () => undefined, error: () => undefined };

describe('treeagent serve: the help desk in the SQLite data directory', () => {
  it('a canned response and a CSAT rating survive a restart', async () => {
    const files = await writeClusterFiles(scratch);
    const operators = await writeHelpDeskOperators(scratch);
    const options = { port: '0', data: join(scratch, 'data'), operators };
    const first = await startServe(files.tree, options, quiet);
    try {
      await useHelpDesk(first.url);
    } finally {
      await first.close();
    }
    const second = await startServe(files.tree, options, quiet);
    try {
      const state = await helpDeskState(second.url);
      expect(state.shortcuts).toEqual(['greet']);
      expect(state.ratings).toMatchObject({
        count: 1,
        average: 4,
        comments: [{ comment: 'Kind and quick' }],
      });
    } finally {
      await second.close();
    }
  }, 60_000);
});
