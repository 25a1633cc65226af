import { mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../main.js';
import { capture } from './capture.js';
import { writeShopTree } from './versioned-tree.js';

/** Where the versions of a scenario are: the store flags of the version commands, and cleaning up. */
export interface ScenarioStore {
  flags: string[];
  dispose(): Promise<void>;
}

/**
 * Publish, a refused publish (a failing conversation test; a routing regression), publishing an older
 * version, and rollback, through `treeagent versions / publish / rollback` on a backend.
 */
export function describePublishScenario(name: string, openStore: () => Promise<ScenarioStore>): void {
  describe(`publish and rollback on ${name}`, () => {
    // Inside the package, so that the tree's callbacks module resolves like a user's.
    const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-publish-', import.meta.url)));
    let store: ScenarioStore;
    let tree = '';
    beforeAll(async () => {
      store = await openStore();
      tree = writeShopTree(scratch);
    });
    afterAll(async () => {
      await store?.dispose();
      rmSync(scratch, { recursive: true, force: true });
    });
    const run = async (...args: string[]) => {
      const output = capture();
      const code = await main([...args, '--data', `${scratch}/data`, ...store.flags], output);
      return { code, text: output.lines.join('\n'), err: output.err.join('\n') };
    };
    const serving = async () => /production\s+(\S+)/.exec((await run('versions', tree)).text)![1];

    test('a version that passes the gate is published; a failing conversation test or a routing regression is refused, listing each failure; rollback returns', async () => {
      const first = await run('publish', 'production', tree, '-m', 'first release', '--min-accuracy', '0.9');
      expect(first.err).toBe('');
      expect(first.code).toBe(0);
      expect(first.text).toMatch(/conversation tests: 1 of 1 passed/);
      expect(first.text).toMatch(/routing eval .*accuracy 1\.000/);
      const v1 = /Published version (\w{12}) of shop to production/.exec(first.text)![1]!;
      expect(await serving()).toBe(v1);
      expect((await run('publish', 'production', tree, '-m', 'again')).text).toMatch(
        `production already serves version ${v1}`,
      );

      writeShopTree(scratch, { shippingAnswer: 'Shipping takes a week.' });
      const broken = await run('publish', 'production', tree, '-m', 'slower shipping');
      expect(broken.code).toBe(1);
      expect(broken.err).toMatch(
        /Publish of version \w{12} to production refused:\n {2}- conversation test "shipping time" \(.*shipping\.yaml\) failed/,
      );
      expect(await serving()).toBe(v1);

      writeShopTree(scratch, { returnsChunks: ['opening hours', 'store address'] });
      const regression = await run('publish', 'production', tree, '-m', 'new returns examples');
      expect(regression.code).toBe(1);
      expect(regression.err).toMatch(/- routing accuracy 0\.500 is below the environment's minimum 0\.9/);
      expect(regression.err).toMatch(
        /- node "returns": recall 0\.000, was 1\.000 at the last publish \(a drop of 1\.000, more than the margin 0\.05\)/,
      );
      expect(await serving()).toBe(v1);

      writeShopTree(scratch, {
        returnsChunks: [
          'return a bike',
          'refund my order',
          'send the bike back',
          'money back',
          'give it back',
        ],
      });
      const second = await run('publish', 'production', tree, '-m', 'one more example');
      expect(second.code).toBe(0);
      const v2 = /Published version (\w{12})/.exec(second.text)![1]!;
      expect(v2).not.toBe(v1);
      const listed = await run('versions', tree, '--diff');
      expect(listed.text).toMatch(new RegExp(`${v2} .* cli {2}one more example {2}\\[production\\]`));
      expect(listed.text).toMatch(/node 11 \(returns\): chunks changed/);
      expect(listed.text).toMatch(/node 10 \(shipping\): emit changed/);

      const back = await run('rollback', 'production', tree);
      expect(back.code).toBe(0);
      expect(back.text).toContain(`Rolled production back from version ${v2} to ${v1} of shop.`);
      expect(await serving()).toBe(v1);
      const nothing = await run('rollback', 'production', tree);
      expect(nothing.code).toBe(1);
      expect(nothing.err).toMatch(/production has no earlier publish of shop to return to/);

      // An older version is published from the store: its document is gated, not the file's.
      const staged = await run('publish', 'staging', tree, '--version', v2, '-m', 'stage v2');
      expect(staged.code).toBe(0);
      expect(staged.text).toContain(`Published version ${v2} of shop to staging.`);
    }, 120_000);

    test('bad input is refused with exit code 2 and says what to do', async () => {
      const unknown = await run('publish', 'prod', tree, '-m', 'x');
      expect(unknown.code).toBe(2);
      expect(unknown.err).toMatch(
        /There is no environment "prod": the environments are draft, staging, production/,
      );
      const silent = await run('publish', 'staging', tree);
      expect(silent.code).toBe(2);
      expect(silent.err).toMatch(/Say why you publish: -m/);
      const missing = await run('publish', 'staging', tree, '--version', 'ffffffffffff', '-m', 'x');
      expect(missing.code).toBe(2);
      expect(missing.err).toMatch(/has no version "ffffffffffff": list them with treeagent versions/);
      const share = await run('publish', 'staging', tree, '-m', 'x', '--min-accuracy', '90');
      expect(share.code).toBe(2);
      expect(share.err).toMatch(/--min-accuracy takes a share between 0 and 1/);
    }, 60_000);
  });
}
