import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTree, type Tree, TreeAgent } from '@treeagent/core';
import { experimentSampleSize } from '@treeagent/core/adapter';
import { openSqlite } from '@treeagent/sqlite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { main } from '../main.js';
import { capture } from '../test-support/capture.js';

const dir = mkdtempSync(join(tmpdir(), 'treeagent-experiment-'));
const data = join(dir, 'data');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const shop = (answer: string): Tree =>
  defineTree({
    name: 'shop',
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        name: 'shipping',
        chunks: ['how long does shipping take'],
        emit: { message: { type: 'static', content: answer } },
      },
    ],
  });
const control = shop('Two days.');
const treatment = shop('Two days, one in town.');

/** Real conversations on two versions, in the data directory: every control conversation contained, half the treatment's not. */
beforeAll(async () => {
  const stores = openSqlite(data);
  try {
    for (const [tree, failing] of [
      [control, 0],
      [treatment, 12],
    ] as const) {
      const agent = new TreeAgent({ tree, sessionStore: stores.sessionStore });
      for (let index = 0; index < 24; index++)
        await agent.send(
          `${tree.contentHash.slice(0, 6)}-${index}`,
          index < failing ? 'qwertz uiop asdf' : 'how long does shipping take',
        );
    }
    // Two users of the control rated their conversation; nobody of the treatment did.
    for (const [sessionId, rating] of [
      ['rated-1', 3],
      ['rated-2', 4],
    ] as const)
      await stores.satisfaction.add({
        sessionId,
        rating,
        comment: null,
        operatorId: null,
        team: 'support',
        treeVersion: control.contentHash,
        at: new Date(),
      });
  } finally {
    await stores.close();
  }
});

test('report --experiment shows each variant’s figures, the method, the sample size and the decision', async () => {
  const output = capture();
  const flags = ['--baseline', '0.6', '--min-effect', '0.35'];
  expect(
    await main(
      ['report', '--data', data, '--experiment', control.contentHash, treatment.contentHash, ...flags],
      output,
    ),
  ).toBe(0);
  const text = output.out.join('\n');
  const planned = experimentSampleSize({ baseline: 0.6, minimumEffect: 0.35 });
  expect(planned).toBeLessThanOrEqual(24);
  expect(text).toMatch(/control {3}\w{12} +24 +100\.0% +0\.0% +0\.0% .* 3\.50 \(2 ratings\)$/m);
  expect(text).toMatch(/treatment \w{12} +24 +50\.0% +0\.0% +50\.0% .* not collected$/m);
  expect(text).toContain('method: two-sided two-proportion z-test on containment');
  expect(text).toContain(`sample size: ${planned} conversations per variant; z = -`);
  expect(text).toContain(`decision: control ${control.contentHash} wins`);

  const early = capture();
  await main(['report', '--data', data, '--experiment', control.contentHash, treatment.contentHash], early);
  expect(early.out.join('\n')).toMatch(/decision: continue — \d+ more conversations in the smaller variant/);

  const bad = capture();
  expect(await main(['report', '--data', data, '--experiment', control.contentHash], bad)).toBe(2);
  expect(bad.err.join('\n')).toMatch(/--experiment takes two tree versions/);
});
