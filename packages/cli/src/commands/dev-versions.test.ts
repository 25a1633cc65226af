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

test('treeagent dev records a version at start, on a file change picked up by the watch, and on an editor save — once per content', async () => {
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
  } finally {
    await dev.close();
  }
}, 60_000);
