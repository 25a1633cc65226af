import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqlite } from '@treeagent/sqlite';
import { afterAll, expect, test } from 'vitest';
import { capture } from '../test-support/capture.js';
import { writeShopTree } from '../test-support/versioned-tree.js';
import { startDev } from './dev.js';

// Inside the package, so that the tree's callbacks module resolves @treeagent/core.
const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-dev-versions-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test('treeagent dev records a version at start, on a file change picked up by the watch, and on an editor save — once per content; without operator logins the developer publishes as "dev"', async () => {
  const tree = writeShopTree(scratch);
  const data = join(scratch, 'data');
  const out = capture();
  const dev = await startDev(tree, { port: '0', data }, out);
  const versions = async () => {
    const sqlite = openSqlite(data);
    try {
      return (await sqlite.versionStore.listVersions('shop')).map((version) => ({
        author: version.author,
        message: version.message,
        diff: version.diff,
      }));
    } finally {
      await sqlite.close();
    }
  };
  try {
    expect(await versions()).toEqual([{ author: 'cli', message: 'treeagent dev started', diff: '' }]);

    let reloaded = dev.nextReload();
    writeShopTree(scratch, { shippingAnswer: 'Shipping takes 2 days, 1 in town.' });
    await reloaded;
    expect((await versions())[0]).toEqual({
      author: 'watch',
      message: 'file change picked up by treeagent dev',
      diff: 'node 10 (shipping): emit changed',
    });

    // The same text written again is no new version.
    reloaded = dev.nextReload();
    writeFileSync(tree, readFileSync(tree, 'utf8'));
    await reloaded;
    expect(await versions()).toHaveLength(2);

    const state = (await (await fetch(`${dev.url}/api/v1/editor`)).json()) as {
      version: string;
      document: { nodes: { id: number; name?: string }[] };
    };
    const document = structuredClone(state.document);
    document.nodes.find((node) => node.id === 11)!.name = 'refunds';
    reloaded = dev.nextReload();
    const saved = await fetch(`${dev.url}/api/v1/editor`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ document, baseVersion: state.version }),
    });
    expect(saved.status).toBe(200);
    await reloaded;
    const listed = await versions();
    expect(listed).toHaveLength(3);
    expect(listed[0]).toEqual({
      author: 'editor',
      message: 'saved in the editor',
      diff: 'node 11 (refunds): name changed',
    });

    // The Versions panel's routes work without operator logins: the developer publishes as "dev".
    const panel = await fetch(`${dev.url}/api/v1/versions`);
    expect(panel.status, await panel.clone().text()).toBe(200);
    const ids = ((await panel.json()) as { versions: { id: string }[] }).versions.map(
      (version) => version.id,
    );
    expect(ids).toHaveLength(3);
    const published = await fetch(`${dev.url}/api/v1/versions/publish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ environment: 'staging', version: ids[2], message: 'first release' }),
    });
    expect(published.status, await published.clone().text()).toBe(200);
    expect(await published.json()).toMatchObject({ published: true, versionId: ids[2] });
    const sqlite = openSqlite(data);
    try {
      expect((await sqlite.versionStore.history('shop', 'staging')).map((change) => change.author)).toEqual([
        'dev',
      ]);
    } finally {
      await sqlite.close();
    }
  } finally {
    await dev.close();
  }
}, 60_000);
