import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { main } from '../main.js';
import { capture } from '../test-support/capture.js';
import { startDev } from './dev.js';
import { startServe } from './serve.js';

// Inside the package (gitignored `.scratch-*`), removed after the tests.
const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const INTENTS = ['borv', 'kelt', 'mirra', 'zumo'];

/** A tree of 4 intents × 30 chunks of made-up words (120 chunks: fitted at load; no language, so a hashed base). */
function writeTree(file: string, extraChunk?: string): void {
  const nodes: unknown[] = [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    ...INTENTS.map((intent, index) => ({
      id: 10 + index,
      type: 'emit',
      parent: 2,
      name: intent,
      chunks: [
        ...Array.from({ length: 30 }, (_, i) => `${intent}${i % 5} tala${i} ${intent}ex quon${(i * 7) % 11}`),
        ...(extraChunk && index === 0 ? [extraChunk] : []),
      ],
      emit: { message: { type: 'static', content: intent } },
    })),
  ];
  writeFileSync(file, JSON.stringify({ name: 'made-up', nodes }));
}

const fittedFrom = (file: string) => `embedding space: fitted to the tree (cached fit ${file};`;
const fitting = 'while the fit runs in the background';

describe('treeagent fit, made ahead, is used by dev and serve from the first message', () => {
  test('the fit shipped beside the tree is used by dev and serve with a fresh data directory; a changed tree is fitted again', async () => {
    const project = join(scratch, 'shipped');
    const tree = join(project, 'tree.json');
    const shipped = join(project, 'tree.fit.json');
    mkdirSync(project, { recursive: true });
    writeTree(tree);
    const fitted = capture();
    expect(await main(['fit', tree, '--data', join(scratch, 'deploy-data')], fitted)).toBe(0);
    expect(fitted.err).toEqual([]);
    expect(existsSync(shipped)).toBe(true);
    expect(fitted.out.join('\n')).toContain(`written ${shipped}`);

    // Another machine: the project's files, an empty data directory.
    const devOut = capture();
    const dev = await startDev(tree, { port: '0', data: join(scratch, 'dev-data') }, devOut);
    try {
      expect(devOut.lines.join('\n')).toContain(fittedFrom(shipped));
    } finally {
      await dev.close();
    }
    const serveOut = capture();
    const served = await startServe(tree, { port: '0', data: join(scratch, 'serve-data') }, serveOut);
    try {
      expect(serveOut.lines.join('\n')).toContain(fittedFrom(shipped));
    } finally {
      await served.close();
    }

    const linted = capture();
    expect(await main(['lint', tree], linted)).toBe(0);
    expect(linted.out.join('\n')).not.toContain('[stale-fit]');

    // The tree's chunks changed after the fit was shipped: the stale fit is not used.
    writeTree(tree, 'borv0 nuovo tala99');
    const changedOut = capture();
    const changed = await startDev(tree, { port: '0', data: join(scratch, 'changed-data') }, changedOut);
    try {
      const text = changedOut.lines.join('\n');
      expect(text).not.toContain(fittedFrom(shipped));
      expect(text).toContain(fitting);
    } finally {
      await changed.close();
    }
    // lint says so, and how to fix it; --strict fails on it.
    const stale = capture();
    expect(await main(['lint', tree, '--strict'], stale)).toBe(1);
    const warning = stale.out.find((line) => line.startsWith(`warning [stale-fit] ${shipped}: `));
    expect(warning).toContain('Fix: run `treeagent fit');
  }, 120_000);

  test("the fit kept in the data directory's fits/ is used by dev on the same data directory", async () => {
    const project = join(scratch, 'data-only');
    mkdirSync(project, { recursive: true });
    const tree = join(project, 'tree.json');
    writeTree(tree);
    const data = join(scratch, 'shared-data');
    const elsewhere = join(scratch, 'elsewhere.fit.json');
    expect(await main(['fit', tree, '--data', data, '--out', elsewhere], capture())).toBe(0);
    const [kept] = readdirSync(join(data, 'fits')).filter((file) => file.endsWith('.json'));
    expect(kept).toBeDefined();
    const out = capture();
    const dev = await startDev(tree, { port: '0', data }, out);
    try {
      expect(out.lines.join('\n')).toContain(fittedFrom(join(data, 'fits', kept!)));
    } finally {
      await dev.close();
    }
  }, 120_000);
});
