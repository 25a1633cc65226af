import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatTreeDocument, type TreeDocument } from '@treeagent/core/document';
import { TreeEditConflict } from '@treeagent/server';
import { afterAll, describe, expect, it } from 'vitest';
import { fileTreeEditor } from './tree-editor-file.js';
import { watchFiles } from './watch-file.js';

const scratch = mkdtempSync(fileURLToPath(new URL('../.scratch-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const document = (name: string): TreeDocument => ({
  format: 'treeagent-tree',
  version: 1,
  name: 'shop',
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, parent: 1, type: 'agent', isPrimary: true },
    {
      id: 3,
      parent: 2,
      type: 'emit',
      name,
      chunks: ['shipping cost'],
      emit: { message: { type: 'static', content: 'Shipping is 7.90.' } },
    },
  ],
});

let count = 0;
function treeFile(): string {
  const path = join(scratch, `tree-${++count}.json`);
  writeFileSync(path, formatTreeDocument(document('shipping')));
  return path;
}

describe('the JSON tree file of the editor', () => {
  it('saves by compare-and-swap: of many saves from the same version, one is written and the others are conflicts', async () => {
    const path = treeFile();
    const source = fileTreeEditor(path);
    const { version } = await source.read();
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    const results = await Promise.allSettled(names.map((name) => source.write(document(name), version)));
    const written = results.flatMap((result, index) => (result.status === 'fulfilled' ? [names[index]] : []));
    expect(written).toHaveLength(1);
    for (const result of results)
      if (result.status === 'rejected') expect(TreeEditConflict.isInstance(result.reason)).toBe(true);
    expect(JSON.parse(readFileSync(path, 'utf8')).nodes[2].name).toBe(written[0]);
    // Nothing left behind: no temporary file, no lock.
    expect(
      readdirSync(scratch).filter((name) => name.includes(`tree-${count}.json.`) || name.endsWith('.tmp')),
    ).toEqual([]);
  });

  it("a save keeps the tree file's permissions exactly, whatever the umask: 0600 stays 0600, 0644 stays 0644", async () => {
    const previous = process.umask(0o077);
    try {
      for (const mode of [0o600, 0o644]) {
        const path = treeFile();
        chmodSync(path, mode);
        const source = fileTreeEditor(path);
        await source.write(document('postage'), (await source.read()).version);
        expect(JSON.parse(readFileSync(path, 'utf8')).nodes[2].name).toBe('postage');
        expect((statSync(path).mode & 0o777).toString(8)).toBe(mode.toString(8));
      }
    } finally {
      process.umask(previous);
    }
  });

  it('waits for the lock another process holds, and takes over the lock of a process that died', async () => {
    const path = treeFile();
    const source = fileTreeEditor(path);
    const { version } = await source.read();
    // A live process holds the lock for 800 ms, as another treeagent process saving would.
    const holder = spawn(process.execPath, [
      '-e',
      `require('node:fs').writeFileSync(${JSON.stringify(`${path}.lock`)}, String(process.pid)); setTimeout(() => { require('node:fs').rmSync(${JSON.stringify(`${path}.lock`)}); }, 800);`,
    ]);
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    while (!existsSync(`${path}.lock`)) await new Promise((resolve) => setTimeout(resolve, 10));
    const started = Date.now();
    const next = await source.write(document('postage'), version);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    await exited;
    expect(JSON.parse(readFileSync(path, 'utf8')).nodes[2].name).toBe('postage');

    // The lock of a process that no longer exists does not block.
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.once('exit', resolve));
    writeFileSync(`${path}.lock`, String(dead.pid));
    await source.write(document('delivery'), next);
    expect(JSON.parse(readFileSync(path, 'utf8')).nodes[2].name).toBe('delivery');
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('reports changes on disk, also when the file is replaced by a rename', async () => {
    const path = treeFile();
    const source = fileTreeEditor(path);
    const versions: string[] = [];
    let heard: () => void = () => undefined;
    const stop = source.watch!((version) => {
      versions.push(version);
      heard();
    });
    const next = () => new Promise<void>((resolve) => (heard = resolve));
    try {
      let change = next();
      writeFileSync(path, formatTreeDocument(document('edited in place')));
      await change;
      expect(versions.at(-1)).toBe(await source.version());

      change = next();
      writeFileSync(`${path}.new`, formatTreeDocument(document('replaced')));
      renameSync(`${path}.new`, path);
      await change;
      expect(versions.at(-1)).toBe(await source.version());
      expect((await source.read()).document.nodes[2]!.name).toBe('replaced');

      // Its own atomic save too (the dev server's watcher sees it the same way).
      change = next();
      await source.write(document('saved'), versions.at(-1)!);
      await change;
      expect(versions.at(-1)).toBe(await source.version());
    } finally {
      stop();
    }
  });
});

describe('watching files', () => {
  it('by polling, where the file system cannot be watched: a change in place and a replacement are reported', async () => {
    const path = treeFile();
    let heard: () => void = () => undefined;
    const stop = watchFiles([path], () => heard(), { polling: true, pollMs: 50 });
    const next = () => new Promise<void>((resolve) => (heard = resolve));
    // Polling compares with the first stat it took: let it take it before changing anything.
    await new Promise((resolve) => setTimeout(resolve, 500));
    try {
      let change = next();
      writeFileSync(path, formatTreeDocument(document('edited in place, a longer name')));
      await change;
      change = next();
      writeFileSync(`${path}.new`, formatTreeDocument(document('replaced')));
      renameSync(`${path}.new`, path);
      await change;
      expect(JSON.parse(readFileSync(path, 'utf8')).nodes[2].name).toBe('replaced');
    } finally {
      stop();
    }
  });
});
