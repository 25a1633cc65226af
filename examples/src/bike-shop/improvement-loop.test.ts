import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main, type Output } from '@treeagent/cli';
import { TreeAgent } from '@treeagent/core';
import { clusterMessages } from '@treeagent/core/analytics';
import { addChunksToTree } from '@treeagent/server';
import { SqliteSessionStore } from '@treeagent/sqlite';
import { afterAll, describe, expect, test } from 'vitest';
import { bikeShopTree } from './tree.js';

/**
 * The improvement loop of docs/analytics.md, end to end on the demo: shipping questions the bike
 * shop does not recognise end in its fallback; analytics clusters them; "add as chunks" writes them
 * to the tree's chunks file; `treeagent eval` on held-out paraphrases shows the gain.
 */
const here = fileURLToPath(new URL('.', import.meta.url));
// Inside the package, so that the copied tree resolves @treeagent/core.
const scratch = mkdtempSync(join(here, '../../.scratch-loop-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const PICK_UP = [
  'ritiro in negozio possibile?',
  'posso venire a ritirare in negozio?',
  'si può ritirare in negozio?',
  'ritiro di persona in negozio?',
];
const PARKING = ["c'è parcheggio per le bici?", 'dove posso parcheggiare?', 'avete un parcheggio?'];
const UNRECOGNISED = [...PICK_UP, ...PARKING];
const HELD_OUT = ['è possibile il ritiro in negozio?', 'posso ritirare in negozio?'];

function quiet(): Output & { out: string[] } {
  const out: string[] = [];
  return { out, log: (line) => out.push(line), write: (text) => out.push(text), error: () => {} };
}

async function accuracy(tree: string, utterances: string): Promise<number> {
  const output = quiet();
  expect(await main(['eval', tree, utterances, '--json', '--data', join(scratch, 'eval-data')], output)).toBe(
    0,
  );
  return (JSON.parse(output.out.join('\n')) as { accuracy: number }).accuracy;
}

describe('the improvement loop on the bike shop', () => {
  test('unmatched → clusters → add as chunks → eval shows the gain', async () => {
    const sessionStore = new SqliteSessionStore(join(scratch, 'data.db'));
    const agent = new TreeAgent({ tree: bikeShopTree(), sessionStore });
    for (const [index, text] of UNRECOGNISED.entries()) await agent.send(`user-${index}`, text);

    const unmatched = await sessionStore.analytics().unmatched();
    // Most of them ended in the fallback (one pick-up question is close enough to shipping already).
    expect(unmatched.length).toBeGreaterThanOrEqual(5);
    for (const message of unmatched) expect(UNRECOGNISED).toContain(message.message);
    const clusters = clusterMessages(
      unmatched,
      await agent.embed(unmatched.map((message) => message.message)),
    );
    expect(clusters.length).toBeGreaterThan(0);
    expect(clusters.length).toBeLessThan(UNRECOGNISED.length);
    await sessionStore.close();

    // The tree file the dev server would edit: a copy of the demo, so the repository is untouched.
    // Every module of the tree (tree.ts imports its neighbours), not the tests.
    for (const file of readdirSync(here).filter((name) => name.endsWith('.ts') && !name.includes('.test.')))
      copyFileSync(join(here, file), join(scratch, file));
    const tree = join(scratch, 'tree.ts');
    const target = [...bikeShopTree().nodes.values()].find((node) => node.name === 'spedizioni: search')!;
    const utterances = join(scratch, 'held-out.tsv');
    writeFileSync(utterances, HELD_OUT.map((text) => `${text}\tspedizioni: search\n`).join(''));
    const before = await accuracy(tree, utterances);

    // The pick-up cluster belongs to shipping: its messages become the node's chunks.
    const pickUp = clusters.find((cluster) =>
      cluster.messages.some((message) => message.message === PICK_UP[0]),
    )!;
    expect(pickUp.messages.map((message) => message.message)).not.toContain(PARKING[0]);
    addChunksToTree(
      tree,
      target.id,
      pickUp.messages.map((message) => message.message),
    );
    expect(existsSync(join(scratch, 'tree.chunks.json'))).toBe(true);
    expect(JSON.parse(readFileSync(join(scratch, 'tree.chunks.json'), 'utf8')).chunks[target.id]).toEqual(
      pickUp.messages.map((message) => message.message),
    );
    const after = await accuracy(tree, utterances);
    expect(before).toBe(0);
    expect(after).toBeGreaterThan(before);
  }, 120_000);
});
