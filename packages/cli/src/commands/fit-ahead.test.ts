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

describe("a tree module's fitBase export", () => {
  /** An English tree of 4 topics × 30 chunks (120: fitted at load), choosing its base. */
  const englishTree = (fitBase: string) => `import { defineTree } from '@treeagent/core';
export const fitBase = ${fitBase};
const openings = ['can you tell me', 'i want to know', 'please show me', 'what is', 'i need to check', 'could you find'];
const topics = {
  shipping: ['the shipping cost', 'how long delivery takes', 'when my parcel arrives', 'the postage to france', 'the delivery options'],
  returns: ['how to return an item', 'the refund policy', 'how i send back shoes', 'if i can get my money back', 'the return label'],
  hours: ['your opening hours', 'when the shop opens', 'if you are open on sunday', 'what time you close', 'the holiday hours'],
  payment: ['which cards you accept', 'if i can pay with paypal', 'how to pay in instalments', 'the payment options', 'the invoice'],
};
export default defineTree({ name: 'shop', nodes: [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  ...Object.entries(topics).map(([name, objects], index) => ({
    id: 10 + index, type: 'emit', parent: 2, name,
    chunks: openings.flatMap((opening) => objects.map((object) => opening + ' ' + object)),
    emit: { message: { type: 'static', content: name } },
  })),
] });
`;

  test("'cascade': treeagent fit ships both fits, and inspect with a fresh data directory routes over them", async () => {
    const project = join(scratch, 'cascade');
    mkdirSync(project, { recursive: true });
    const tree = join(project, 'tree.mjs');
    writeFileSync(tree, englishTree("'cascade'"));
    const fitted = capture();
    expect(await main(['fit', tree, '--data', join(scratch, 'cascade-data')], fitted)).toBe(0);
    expect(fitted.err).toEqual([]);
    const text = fitted.out.join('\n');
    expect(text).toContain(`written ${join(project, 'tree.fit.json')}`);
    expect(text).toMatch(
      /written .*tree\.fit\.escalation\.json \(the cascade's second space, for unsure messages: USE-lite \+ hashed/,
    );
    expect(text).toMatch(
      /^base: USE-lite student \+ hashed n-grams 2:1 .*; unsure messages over USE-lite \+ hashed n-grams 2:1$/m,
    );
    expect(existsSync(join(project, 'tree.fit.escalation.json'))).toBe(true);

    // Another machine: the project's files, an empty data directory: both fits read, nothing fitted.
    const inspected = capture();
    expect(await main(['inspect', tree], inspected)).toBe(0);
    expect(inspected.out.join('\n')).toMatch(
      /embedding space: fitted to the tree \(cached fit .*tree\.fit\.json; base USE-lite student \+ hashed n-grams 2:1 .*; unsure messages over USE-lite/,
    );
  });

  test('a wrong value names the file and the choices', async () => {
    const tree = join(scratch, 'wrong-base.mjs');
    writeFileSync(tree, englishTree("'fast'"));
    const failed = capture();
    expect(await main(['lint', tree], failed)).toBe(2);
    expect(failed.err.join('\n')).toContain(
      `${tree} exports fitBase = "fast"; export one of 'auto', 'use-student', 'cascade', 'agent'`,
    );
  });
});
