import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqlite } from '@treeagent/sqlite';
import { afterAll, expect, test } from 'vitest';
import { startDev } from './commands/dev.js';
import { loadTree } from './load-tree.js';
import { capture } from './test-support/capture.js';

// Inside the package, so that the tree's modules resolve like a user's.
const scratch = mkdtempSync(fileURLToPath(new URL('../.scratch-load-tree-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A JSON tree whose callbacks module is JavaScript (`shop.callbacks.js`), in its own directory. */
function javascriptCallbacksTree(name: string, greeting: string): { tree: string; module: string } {
  const directory = join(scratch, name);
  const tree = `${directory}.json`;
  const module = `${directory}.callbacks.js`;
  writeFileSync(
    tree,
    JSON.stringify({
      format: 'treeagent-tree',
      version: 1,
      name: 'shop',
      module: `./${name}.callbacks.js`,
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, parent: 1, type: 'agent', name: 'assistant', isPrimary: true },
        {
          id: 10,
          parent: 2,
          type: 'emit',
          name: 'greet',
          chunks: ['hello'],
          callbacks: { emit: 'greeting' },
        },
      ],
    }),
  );
  writeFileSync(module, callbacks(greeting));
  return { tree, module };
}

const callbacks = (greeting: string) =>
  `export const greeting = () => ({ message: { type: 'static', content: ${JSON.stringify(greeting)} } });\n`;

test("a JSON tree's JavaScript callbacks module is among the files loaded (what treeagent dev watches)", async () => {
  const { tree, module } = javascriptCallbacksTree('listed', 'Hello!');
  const loaded = await loadTree(tree);
  expect(loaded.files).toEqual([tree, module]);
});

test('treeagent dev reloads the tree and records a version when its JavaScript callbacks module changes', async () => {
  const { tree, module } = javascriptCallbacksTree('watched', 'Hello!');
  const data = join(scratch, 'data');
  const out = capture();
  const dev = await startDev(tree, { port: '0', data }, out);
  try {
    const reloaded = dev.nextReload();
    writeFileSync(module, callbacks('Hello again!'));
    await reloaded;
    expect(dev.reloads).toBe(1);
    const sqlite = openSqlite(data);
    try {
      const versions = await sqlite.versionStore.listVersions('shop');
      expect(versions.map((version) => [version.author, version.diff])).toEqual([
        ['watch', 'callbacks module changed'],
        ['cli', ''],
      ]);
    } finally {
      await sqlite.close();
    }
  } finally {
    await dev.close();
  }
}, 60_000);
