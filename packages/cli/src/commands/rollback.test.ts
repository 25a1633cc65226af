import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TreeAgent } from '@treeagent/core';
import { openSqlite } from '@treeagent/sqlite';
import { afterAll, expect, test } from 'vitest';
import { main } from '../main.js';
import { capture } from '../test-support/capture.js';
import { writeShopTree } from '../test-support/versioned-tree.js';
import { EnvironmentTrees } from '../versions/environment-trees.js';

// Inside the package, so that the tree's callbacks module resolves like a user's.
const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-rollback-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A scenario in its own directory: the shop tree, its data directory, and the CLI on them. */
function scenario(name: string) {
  const directory = join(scratch, name);
  const data = join(directory, 'data');
  const tree = writeShopTree(directory);
  const run = async (...args: string[]) => {
    const output = capture();
    const code = await main([...args, '--data', data], output);
    return { code, text: output.out.join('\n'), err: output.err.join('\n') };
  };
  const idOf = (pattern: RegExp, text: string) => pattern.exec(text)![1]!;
  return { directory, data, tree, run, idOf };
}

test('a rollback during an experiment ends it, and the server following the environment gives every new session the version rolled back to, saying so; a publish during it is refused', async () => {
  const { directory, data, tree, run, idOf } = scenario('experiment');
  const v1 = idOf(
    /Published version (\w{12})/,
    (await run('publish', 'production', tree, '-m', 'first')).text,
  );
  writeShopTree(directory, { shippingAnswer: 'Shipping takes 2 days, 1 in town.' });
  const v2 = idOf(
    /Published version (\w{12})/,
    (await run('publish', 'production', tree, '-m', 'town')).text,
  );
  expect(
    (await run('experiment', 'production', tree, '--split', `${v1}=50`, `${v2}=50`, '--name', 'town')).code,
  ).toBe(0);
  expect((await run('versions', tree)).text).toMatch(
    new RegExp(`production +${v2}  experiment "town" since \\S+: ${v1} 50%, ${v2} 50% of new sessions`),
  );

  const sqlite = openSqlite(data);
  const out = capture();
  // The agent's tree switch is all refresh asks of it (a stand-in, labelled).
  const agent = { setTree: async () => {} } as unknown as TreeAgent;
  try {
    const trees = await EnvironmentTrees.open(sqlite.versionStore, tree, 'production', {}, out);
    const variantsOf = async (prefix: string) => {
      const served = new Set<string>();
      for (let index = 0; index < 30; index++)
        served.add((await trees.treeFor(`${prefix}-${index}`)) === null ? trees.versionId : 'other');
      return served;
    };
    expect(out.out).toEqual([
      `production runs the experiment "town": new sessions get ${v1} 50%, ${v2} 50%, not only ${v2}, until it ends.`,
    ]);
    expect(await variantsOf('during')).toEqual(new Set([v2, 'other']));

    // A publish would not reach new sessions: refused, naming the experiment and the way out.
    writeShopTree(directory, { shippingAnswer: 'Shipping takes 2 days. Really.' });
    const refused = await run('publish', 'production', tree, '-m', 'during the experiment');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('production runs the experiment "town"');
    expect(refused.err).toContain('--stop');

    const back = await run('rollback', 'production', tree);
    expect(back.code).toBe(0);
    expect(back.text).toContain(
      `Rolled production back from version ${v2} to ${v1} of shop, and ended its experiment "town": every new session gets ${v1}.`,
    );
    const history = await sqlite.versionStore.history('shop', 'production');
    expect(history.at(-1)?.message).toBe(`rollback from ${v2} (ended the experiment "town")`);

    expect(await trees.refresh(agent)).toBe(true);
    expect(out.out.slice(1)).toEqual([
      'The experiment "town" of production ended.',
      `production now serves version ${v1} of shop to new sessions (was ${v2}); sessions begun before keep theirs.`,
    ]);
    expect(await variantsOf('after')).toEqual(new Set([v1]));

    // Were the version moved under a running experiment, the log would not claim it reaches new sessions.
    await sqlite.versionStore.setExperiment('shop', 'production', {
      name: 'again',
      variants: [
        { versionId: v1, percent: 50 },
        { versionId: v2, percent: 50 },
      ],
      startedAt: new Date(),
    });
    await sqlite.versionStore.moveEnvironment('shop', {
      environment: 'production',
      versionId: v2,
      action: 'publish',
      author: 'cli',
      message: 'under the experiment',
      at: new Date(),
      figures: null,
    });
    await trees.refresh(agent);
    expect(out.out.slice(3)).toEqual([
      `production runs the experiment "again": new sessions get ${v1} 50%, ${v2} 50%; sessions begun before keep theirs.`,
      `production's version is now ${v2} of shop (was ${v1}), but its experiment "again" still gives new sessions ${v1} 50%, ${v2} 50%: ${v2} reaches them when the experiment ends.`,
    ]);
  } finally {
    await sqlite.close();
  }
}, 120_000);

test('a rollback to a version that cannot be loaded any more (its callbacks module changed) is refused, naming it, and changes nothing', async () => {
  const { directory, tree, run, idOf } = scenario('unloadable');
  const v1 = idOf(
    /Published version (\w{12})/,
    (await run('publish', 'production', tree, '-m', 'first')).text,
  );
  writeFileSync(join(directory, 'shop.callbacks.ts'), 'export const unused = () => null;\n');
  const v2 = idOf(
    /Published version (\w{12})/,
    (await run('publish', 'production', tree, '-m', 'new module')).text,
  );
  const refused = await run('rollback', 'production', tree);
  expect(refused.code).toBe(1);
  expect(refused.err).toContain(
    `production cannot roll back to version ${v1} of shop: it cannot be loaded any more (`,
  );
  expect(refused.err).toContain('another callbacks module');
  expect(refused.err).toContain('Nothing changed.');
  expect((await run('versions', tree)).text).toMatch(new RegExp(`production +${v2}`));

  // An experiment with it is refused the same way, naming the version: nothing starts.
  const experiment = await run('experiment', 'staging', tree, '--split', `${v1}=50`, `${v2}=50`);
  expect(experiment.code).toBe(2);
  expect(experiment.err).toContain(`Version ${v1} cannot be a variant: it cannot be loaded any more (`);
  expect((await run('experiment', 'staging', tree, '--stop')).err).toContain(
    'staging runs no experiment of shop: nothing to stop.',
  );
}, 120_000);
