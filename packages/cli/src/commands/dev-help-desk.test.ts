import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Output } from '../output.js';
import { writeClusterFiles } from '../test-support/cluster.js';
import { helpDeskState, loginAdmin, useHelpDesk, writeHelpDeskOperators } from '../test-support/help-desk.js';
import { startDev } from './dev.js';

const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-dev-help-desk-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const quiet: Output = { log: () => undefined, write: () => undefined, error: () => undefined };

describe('treeagent dev: the help desk', () => {
  it('keeps canned responses and ratings in the data directory, and takes its teams from the configuration file', async () => {
    const files = await writeClusterFiles(scratch);
    const operators = await writeHelpDeskOperators(scratch);
    const config = join(scratch, 'dev.config.json');
    writeFileSync(
      config,
      JSON.stringify({
        models: {},
        helpDesk: { teams: { cluster: { policy: 'least-busy', maxConcurrent: 2 } } },
      }),
    );
    const options = { port: '0', data: join(scratch, 'data'), operators, config, watch: false };
    const first = await startDev(files.tree, options, quiet);
    try {
      await useHelpDesk(first.url);
    } finally {
      await first.close();
    }
    const second = await startDev(files.tree, options, quiet);
    try {
      const state = await helpDeskState(second.url);
      expect(state.shortcuts).toEqual(['greet']);
      expect(state.ratings).toMatchObject({ count: 1, average: 4 });
      const operator = {
        'content-type': 'application/json',
        'x-operator-token': await loginAdmin(second.url),
      };
      const online = await fetch(`${second.url}/api/v1/operator/routing/presence`, {
        method: 'PUT',
        headers: operator,
        body: JSON.stringify({ status: 'online' }),
      });
      expect(online.status, await online.clone().text()).toBe(200);
      const presence = (await (
        await fetch(`${second.url}/api/v1/operator/routing/presence`, { headers: operator })
      ).json()) as { teams: { team: string; policy: string; open: boolean }[] };
      expect(presence.teams).toContainEqual({ team: 'cluster', policy: 'least-busy', open: true });
    } finally {
      await second.close();
    }
  }, 60_000);
});
