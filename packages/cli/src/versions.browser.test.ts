import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqlite } from '@treeagent/sqlite';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServer } from './commands/dev.js';
import { main } from './main.js';
import { capture } from './test-support/capture.js';
import {
  type EditorFixture,
  logInOperator,
  screenshotDirectory,
  startEditorOn,
  writeAdminOperators,
} from './test-support/editor-browser.js';
import { writeShopTree } from './test-support/versioned-tree.js';

/**
 * The editor's Versions panel and the Analytics page's experiment view (docs/versions.md) in
 * Debian's Chromium, against `treeagent dev` with an admin login: three versions of a tree with a
 * conversation test and labelled utterances; publish (one refused by the gate, its failure shown,
 * one accepted), rollback, the diff of two versions; an experiment between two versions with its
 * figures (CSAT of a rated conversation included), plot and decision, and its winner promoted
 * through the confirmation dialog. Screenshots for the docs with TREEAGENT_UPDATE_SCREENSHOTS=1.
 */

const SCREENSHOTS = screenshotDirectory('versions');
// Inside the package, so that the tree's callbacks module resolves like a user's.
const scratch = mkdtempSync(fileURLToPath(new URL('../.scratch-versions-ui-', import.meta.url)));
const data = join(scratch, 'data');
const PASSWORD = 'anna-admin-password-1';

let fixture: EditorFixture;
let dev: DevServer;
let page: Page;
let tree = '';
const ids: string[] = [];

/** Records the tree file as it is now as a version (`treeagent versions -m`), returning its id. */
async function record(message: string): Promise<string> {
  const out = capture();
  expect(await main(['versions', tree, '-m', message, '--data', data], out)).toBe(0);
  return /Recorded version (\w{12})/.exec(out.lines.join('\n'))![1]!;
}

beforeAll(async () => {
  tree = writeShopTree(scratch);
  ids.push(await record('first release'));
  writeShopTree(scratch, { shippingAnswer: 'Shipping takes a week.' });
  ids.push(await record('slower shipping'));
  writeShopTree(scratch, {
    returnsChunks: ['return a bike', 'refund my order', 'send the bike back', 'money back', 'give it back'],
  });
  ids.push(await record('one more returns example'));
  const operators = await writeAdminOperators(scratch, { id: 'anna', name: 'Anna', password: PASSWORD });
  fixture = await startEditorOn(tree, scratch, { operators });
  dev = fixture.dev;
  page = await fixture.newPage({ width: 1280, height: 900 });
}, 120_000);

afterAll(async () => {
  await fixture?.close();
  // Also when the set-up failed before the fixture started.
  rmSync(scratch, { recursive: true, force: true });
});

async function publish(version: string, message: string): Promise<string> {
  const panel = page.locator('#versions-panel');
  await panel.locator('select[name=environment]').selectOption('production');
  await panel.locator('select[name=version]').selectOption(version);
  await panel.locator('input[name=message]').fill(message);
  const before = await page
    .locator('#versions-outcome')
    .textContent()
    .catch(() => null);
  await panel.locator('button[type=submit]', { hasText: 'Publish' }).click();
  // The gate runs the conversation tests and the routing eval: poll until the outcome changes.
  await expect
    .poll(
      async () =>
        page
          .locator('#versions-outcome')
          .textContent()
          .catch(() => null),
      { timeout: 60_000 },
    )
    .not.toBe(before);
  return (await page.locator('#versions-outcome').textContent()) ?? '';
}

const servedInProduction = () =>
  page.locator('#versions-panel select[name=environment] option[value=production]').textContent();

describe('versions in the editor', () => {
  it('publishes through the gate (a refused publish lists its failure), rolls back, diffs two versions', async () => {
    await page.goto(`${dev.url}/staff/editor`);
    await logInOperator(page, 'anna', PASSWORD);
    await page.locator('#versions-panel').waitFor({ timeout: 30_000 });
    for (const id of ids) await page.locator(`#versions-panel tr[data-version="${id}"]`).waitFor();

    expect(await publish(ids[0]!, 'first release')).toContain(`Published version ${ids[0]} to production.`);
    // The panel shows the outcome first, then reads the environments again.
    await expect.poll(servedInProduction).toContain(ids[0]);

    const refused = await publish(ids[1]!, 'slower shipping');
    expect(refused).toContain(`Publish of version ${ids[1]} to production refused:`);
    expect(refused).toMatch(/conversation test "shipping time" \(.*shipping\.yaml\) failed/);
    expect(await servedInProduction()).toContain(ids[0]);
    await page.locator('#versions-panel').screenshot({ path: `${SCREENSHOTS}versions-refused.png` });

    expect(await publish(ids[2]!, 'one more returns example')).toContain(
      `Published version ${ids[2]} to production.`,
    );
    await expect.poll(servedInProduction).toContain(ids[2]);

    await page.locator('#versions-panel button', { hasText: 'Roll back' }).click();
    await expect
      .poll(() => page.locator('#versions-outcome').textContent())
      .toContain(`Rolled production back from version ${ids[2]} to ${ids[0]}.`);
    await expect.poll(servedInProduction).toContain(ids[0]);

    await page.locator('#versions-panel select[name=from]').selectOption(ids[0]!);
    await page.locator('#versions-panel select[name=to]').selectOption(ids[1]!);
    await page.locator('#versions-panel button', { hasText: 'Show the diff' }).click();
    await expect.poll(() => page.locator('#versions-diff').textContent()).toContain('node 10 (shipping)');
    await page.locator('#versions-panel').scrollIntoViewIfNeeded();
    await page.locator('#versions-panel').screenshot({ path: `${SCREENSHOTS}versions-panel.png` });
  }, 240_000);
});

describe('the experiment view in analytics', () => {
  it("shows each variant's figures (CSAT included), the plot and the decision with its method; Promote publishes the winner after a confirmation", async () => {
    const out = capture();
    const started = await main(
      [
        'experiment',
        'production',
        tree,
        '--split',
        `${ids[0]}=50`,
        `${ids[2]}=50`,
        '--name',
        'returns',
        '--data',
        data,
      ],
      out,
    );
    expect(out.err.join('\n')).toBe('');
    expect(started).toBe(0);
    // Conversations on the tree the dev server serves (the file: the third version).
    const sessions: { sessionId: string; token: string }[] = [];
    for (const text of ['how long does shipping take', 'I want to return a bike', 'tell me a joke']) {
      const created = await fetch(`${dev.url}/api/v1/sessions`, { method: 'POST' });
      const { sessionId, token } = (await created.json()) as { sessionId: string; token: string };
      sessions.push({ sessionId, token });
      const answered = await fetch(`${dev.url}/api/v1/sessions/${sessionId}/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Session-Token': token },
        body: JSON.stringify({ message: text }),
      });
      expect(answered.status).toBe(200);
    }
    // The first conversation was handed to a person, handed back, and rated 4 by the user.
    const sqlite = openSqlite(data);
    try {
      await sqlite.handoffQueue.put({
        sessionId: sessions[0]!.sessionId,
        status: 'closed',
        queue: 'support',
        reason: 'asked for a person',
        summary: null,
        since: new Date().toISOString(),
        operator: { id: 'anna', name: 'Anna' },
        claimedAt: null,
        lastUserMessageAt: null,
        closedAt: new Date().toISOString(),
        outcome: 'handed-back',
        notes: [],
      });
    } finally {
      await sqlite.close();
    }
    const rated = await fetch(`${dev.url}/api/v1/sessions/${sessions[0]!.sessionId}/satisfaction`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Session-Token': sessions[0]!.token },
      body: JSON.stringify({ rating: 4 }),
    });
    expect(rated.status, await rated.clone().text()).toBe(201);
    await page.goto(`${dev.url}/staff/analytics`);
    const view = page.locator('#experiment-view');
    await view.waitFor({ timeout: 30_000 });
    expect(await view.locator('h2').textContent()).toContain('returns');
    await expect
      .poll(() => view.locator(`tr[data-variant="${ids[2]}"] td:nth-child(3)`).textContent())
      .toBe('3');
    expect(await view.locator(`tr[data-variant="${ids[0]}"] td:nth-child(3)`).textContent()).toBe('0');
    expect(await view.locator(`tr[data-variant="${ids[0]}"] td:nth-child(2)`).textContent()).toBe('50.0%');
    expect(await page.locator('#experiment-decision').textContent()).toMatch(
      /Continue: every variant needs 1,565 conversations.*two-sided two-proportion z-test/,
    );
    expect(await page.locator('#experiment-chart canvas').count()).toBe(1);
    // CSAT per variant: the rated conversation's version, and "not collected" where nobody rated.
    expect(await view.locator(`tr[data-variant="${ids[2]}"] td.experiment-csat`).textContent()).toBe(
      '4.00 (1 rating)',
    );
    expect(await view.locator(`tr[data-variant="${ids[0]}"] td.experiment-csat`).textContent()).toBe(
      'not collected',
    );
    await view.screenshot({ path: `${SCREENSHOTS}experiment-view.png` });

    // Promote the winner: a confirmation first; cancelling changes nothing.
    await view.locator(`tr[data-variant="${ids[2]}"] button.experiment-promote`).click();
    const dialog = page.locator('#promote-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      `Publish ${ids[2]} to production and end the experiment "returns"?`,
    );
    await dialog.locator('button', { hasText: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const production = async () => {
      const sqlite = openSqlite(data);
      try {
        return await sqlite.versionStore.getEnvironment('shop', 'production');
      } finally {
        await sqlite.close();
      }
    };
    expect((await production())?.experiment?.name).toBe('returns');

    await view.locator(`tr[data-variant="${ids[2]}"] button.experiment-promote`).click();
    await dialog.waitFor();
    expect(await dialog.locator('input[name=promote-message]').inputValue()).toBe(
      'won the experiment returns',
    );
    await dialog.screenshot({ path: `${SCREENSHOTS}experiment-promote.png` });
    await dialog.locator('button', { hasText: 'Publish and end the experiment' }).click();
    await expect
      .poll(() =>
        page
          .locator('#experiment-promoted')
          .textContent()
          .catch(() => null),
      )
      .toBe(`${ids[2]} now serves production; the experiment "returns" ended.`);
    expect(await production()).toMatchObject({ versionId: ids[2], experiment: null });
  }, 120_000);
});
