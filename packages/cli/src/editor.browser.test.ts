import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevServer, startDev } from './commands/dev.js';
import { main } from './main.js';
import { capture } from './test-support/capture.js';
import {
  type EditorFixture,
  openEditor,
  quietOutput,
  screenshotDirectory,
  selectNode,
  startEditorOn,
  waitChecked,
} from './test-support/editor-browser.js';

/**
 * The tree editor (docs/editor.md) in Debian's Chromium, against `treeagent dev` on a JSON tree file
 * that does not exist yet: build a three-intent agent with a component, route, tune, save, reload,
 * chat; undo/redo; an invalid edit refused; a change on disk; a chat saved as a YAML test that
 * `treeagent test` passes. Takes the editor's screenshots for the docs with
 * TREEAGENT_UPDATE_SCREENSHOTS=1 (else into a temporary directory).
 */

const SCREENSHOTS = screenshotDirectory('editor');
// The editor shows the file's path (and so do the screenshots): a folder named like a user's project.
const scratch = mkdtempSync(join(tmpdir(), 'my-agent-'));
const treePath = join(scratch, 'shop.json');

const INTENTS = {
  shipping: {
    chunks: ['how much does shipping cost', 'shipping price', 'delivery time and cost'],
    answer: 'Shipping costs 7.90, free above 99.',
  },
  returns: {
    chunks: ['I want to return a product', 'how do returns work', 'refund for an item'],
    answer: 'You have 30 days to return any product.',
  },
  orders: {
    chunks: ['where is my order', 'track my parcel', 'my order has not arrived'],
    answer: 'Give me your order number and I will look it up.',
  },
};

// Labelled utterances beside the tree: the editor's threshold suggestions come from them.
const UTTERANCES = [
  ...[
    'shipping cost',
    'how much is shipping',
    'price of delivery',
    'shipping fees',
    'cost of shipping to Rome',
    'delivery cost',
    'shipping price please',
    'what does delivery cost',
    'how much for shipping',
    'shipping time and cost',
  ].map((text) => `${text}\tshipping`),
  ...[
    'return a product',
    'how to return an item',
    'I want a refund',
    'return my bike',
    'refund an item',
    'returns policy',
    'can I return it',
    'how do I return this',
    'return a product please',
    'refund for a product',
  ].map((text) => `${text}\treturns`),
  ...[
    'where is my order',
    'track my order',
    'my parcel is late',
    'order not arrived',
    'where is my parcel',
    'track parcel',
    'status of my order',
    'order tracking',
    'my order has not arrived yet',
    'where is the order',
  ].map((text) => `${text}\torders`),
  ...[
    'what is the weather',
    'tell me a joke',
    'who won the match',
    'play some music',
    'what time is it',
    'recipe for pasta',
    'book a flight',
    'translate hello',
    'best pizza in town',
    'stock prices today',
    'how tall is everest',
    'learn french',
    'news today',
    'cinema tonight',
    'open the door',
    'call my mother',
    'set an alarm',
    'how old is the moon',
    'football scores',
    'lottery numbers',
  ].map((text) => `${text}\tnone`),
].join('\n');

let fixture: EditorFixture;
let dev: DevServer;
let page: Page;

beforeAll(async () => {
  writeFileSync(join(scratch, 'utterances.tsv'), `${UTTERANCES}\n`);
  fixture = await startEditorOn(treePath, scratch);
  dev = fixture.dev;
  page = await fixture.newPage({ width: 1280, height: 800 }, { acceptDownloads: true });
}, 60_000);

afterAll(async () => {
  await fixture?.close();
  // Also when the set-up failed before the fixture started.
  rmSync(scratch, { recursive: true, force: true });
});

async function set(selector: string, value: string): Promise<void> {
  await page.locator(selector).fill(value);
  await page.locator(selector).press('Tab');
}

async function addIntent(name: keyof typeof INTENTS): Promise<void> {
  await page.locator('#node-name').fill(name);
  await page.locator('#node-name').press('Tab');
  await page.locator('#chunk-paste').fill(INTENTS[name].chunks.join('\n'));
  await page.locator('#add-chunks').click();
  await set('#message-content', INTENTS[name].answer);
}

async function chat(text: string): Promise<string> {
  const turns = await page.locator('.turn').count();
  await page.locator('#message-input').fill(text);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`.turn:nth-child(${turns + 1}) .turn-meta`);
  const answers = page.locator(`.turn:nth-child(${turns + 1}) .msg--agent .content`);
  return (await answers.count()) ? ((await answers.last().textContent()) ?? '') : '';
}

/** The next dialog the page opens (its type and message), dismissed. */
function dismissNextDialog(page: Page): Promise<{ type: string; message: string }> {
  return new Promise((resolve) =>
    page.once('dialog', (dialog) => {
      resolve({ type: dialog.type(), message: dialog.message() });
      void dialog.dismiss();
    }),
  );
}

describe('the tree editor', () => {
  it('builds a three-intent agent with a component from an empty tree, routes, tunes, saves; the reloaded page and the chat have it', async () => {
    await openEditor(page, dev.url);
    expect(await page.locator('.graph-node').count()).toBe(2);
    expect(await page.locator('#editor-status').textContent()).toBe('Saved');

    await selectNode(page, 2);
    await page.locator('#add-child').click();
    await page.waitForSelector('#node-form .node-form-id:text("#3")');
    await addIntent('shipping');
    await selectNode(page, 2);
    await page.locator('#add-child').click();
    await page.waitForSelector('#node-form .node-form-id:text("#4")');
    await addIntent('returns');
    await selectNode(page, 2);
    await page.locator('#add-component').click();
    // The component (5), its head (6) and the entry (7), selected.
    await page.waitForSelector('#node-form .node-form-id:text("#7")');
    await addIntent('orders');
    await waitChecked(page);
    expect(await page.locator('.graph-node').count()).toBe(5);
    expect(await page.locator('.graph-group[data-group-id="5"]').count()).toBe(1);
    expect(await page.locator('#editor-status').textContent()).toBe('Unsaved changes');

    // Routing while editing: the path, the decisions, the heat map.
    await page.locator('#route-text').fill('how much does shipping cost?');
    await page.locator('#route-button').click();
    await page.waitForSelector('#route-node');
    expect(await page.locator('#route-node').textContent()).toBe('shipping #3');
    expect(await page.locator('#route-result .decision').first().textContent()).toContain('descend');
    expect(await page.locator('[data-node-id="3"]').getAttribute('class')).toContain('is-path');
    expect(await page.locator('[data-node-id="3"] .graph-node-box').getAttribute('style')).toMatch(
      /fill: (hsl|rgb)/,
    );
    await selectNode(page, 3);
    await page.waitForSelector('#ambiguity li');
    expect(await page.locator('#ambiguity').textContent()).toMatch(/returns #4|orders #7/);
    await page.screenshot({ path: `${SCREENSHOTS}editor.png` });

    // Tune: the agent's threshold from the suggestions, applied with one click; the route follows.
    await page.locator('#suggest-thresholds').click();
    await page.waitForSelector('#suggestion-table');
    const apply = page.locator('#suggestion-table .apply-threshold[data-node-id="2"]');
    await apply.click();
    await selectNode(page, 2);
    const suggested = await page.locator('#node-threshold').inputValue();
    expect(Number(suggested)).toBeGreaterThan(0);
    await set('#node-threshold', '0.3');
    await waitChecked(page);
    await page.locator('#route-text').fill('xylophone quartz');
    await page.locator('#route-button').click();
    await page.waitForSelector('#route-result .route-end:has-text("No match")');

    const reloaded = dev.nextReload();
    await page.locator('#save').click();
    await page.waitForSelector('#editor-status:text-is("Saved")');
    await reloaded;
    const saved = JSON.parse(readFileSync(treePath, 'utf8'));
    expect(saved.nodes.find((node: { id: number }) => node.id === 2).similarityThreshold).toBe(0.3);
    expect(saved.nodes.map((node: { type: string }) => node.type)).toEqual([
      'root',
      'agent',
      'emit',
      'emit',
      'component',
      'head',
      'emit',
    ]);
    expect(readFileSync(treePath, 'utf8')).toContain('"chunks": [\n        "how much does shipping cost",');

    await openEditor(page, dev.url);
    expect(await page.locator('.graph-node').count()).toBe(5);
    expect(await page.locator('#editor-status').textContent()).toBe('Saved');

    await page.goto(`${dev.url}/`);
    await page.waitForSelector('body.is-ready');
    expect(await chat('how much does shipping cost?')).toBe(INTENTS.shipping.answer);
    expect(await chat('where is my order?')).toBe(INTENTS.orders.answer);
  }, 120_000);

  it('undoes and redoes edits; an invalid edit is refused with its message, on the node too', async () => {
    await openEditor(page, dev.url);
    await selectNode(page, 3);
    await set('#node-name', 'postage');
    await waitChecked(page);
    expect(await page.locator('[data-node-id="3"] .graph-node-name').textContent()).toContain('postage');
    await page.locator('#undo').click();
    expect(await page.locator('[data-node-id="3"] .graph-node-name').textContent()).toContain('shipping');
    await page.locator('#redo').click();
    expect(await page.locator('[data-node-id="3"] .graph-node-name').textContent()).toContain('postage');
    await page.locator('#tree-graph').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+z');
    expect(await page.locator('[data-node-id="3"] .graph-node-name').textContent()).toContain('shipping');

    await selectNode(page, 3);
    await set('#node-threshold', '2');
    await waitChecked(page);
    expect(await page.locator('#editor-status').textContent()).toMatch(/1 problem: cannot save/);
    expect(await page.locator('#save').isDisabled()).toBe(true);
    expect(await page.locator('#problems').textContent()).toContain(
      'similarityThreshold must be from -1 to 1; it is 2.',
    );
    expect(await page.locator('#node-form .node-findings').textContent()).toContain('Fix:');
    expect(await page.locator('[data-node-id="3"] .graph-badge.is-error').count()).toBe(1);
    await page.screenshot({ path: `${SCREENSHOTS}editor-problems.png` });
    // Saving through the API anyway is refused too, and nothing is written.
    const before = readFileSync(treePath, 'utf8');
    const state = (await (await fetch(`${dev.url}/api/v1/editor`)).json()) as {
      version: string;
      document: { nodes: { id: number }[] };
    };
    const invalid = {
      ...state.document,
      nodes: state.document.nodes.map((node) => (node.id === 3 ? { ...node, similarityThreshold: 2 } : node)),
    };
    const refused = await fetch(`${dev.url}/api/v1/editor`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ document: invalid, baseVersion: state.version }),
    });
    expect(refused.status).toBe(422);
    expect(readFileSync(treePath, 'utf8')).toBe(before);
    await page.locator('#tree-graph').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+z');
    await waitChecked(page);
    expect(await page.locator('#editor-status').textContent()).toBe('Saved');

    // Text typed in a field and not committed yet is unsaved too: a reload asks.
    await page.locator('#node-name').fill('parcels');
    const typed = dismissNextDialog(page);
    await page.reload({ timeout: 2000 }).catch(() => {});
    expect((await typed).type).toBe('beforeunload');
    expect(await page.locator('#node-name').inputValue()).toBe('parcels');
  }, 60_000);

  it('sees a change made on disk: a save is refused as a conflict, and the page reloads the new file', async () => {
    await openEditor(page, dev.url);
    await selectNode(page, 4);
    await set('#node-name', 'refunds');
    const onDisk = JSON.parse(readFileSync(treePath, 'utf8'));
    onDisk.nodes.find((node: { id: number }) => node.id === 3).name = 'delivery';
    const reloaded = dev.nextReload();
    writeFileSync(treePath, `${JSON.stringify(onDisk, null, 2)}\n`);
    await reloaded;
    await page.waitForSelector('#disk-conflict');
    await page.locator('#save').click();
    await page.waitForSelector('#save-error');
    expect(await page.locator('#save-error').textContent()).toMatch(
      /changed on disk since the editor loaded it/,
    );
    expect(JSON.parse(readFileSync(treePath, 'utf8')).nodes[3].name).toBe('returns');
    await page.locator('#reload-from-disk').click();
    await page.locator('#disk-conflict').waitFor({ state: 'detached' });
    expect(await page.locator('[data-node-id="3"] .graph-node-name').textContent()).toContain('delivery');
    expect(await page.locator('[data-node-id="4"] .graph-node-name').textContent()).toContain('returns');

    // Two saves from the same version at the same moment (two admins, two tabs): one is written,
    // the other is a conflict; the file is the winner's, whole.
    const state = (await (await fetch(`${dev.url}/api/v1/editor`)).json()) as {
      version: string;
      document: { nodes: { id: number; name?: string }[] };
    };
    const renamed = (name: string) => ({
      ...state.document,
      nodes: state.document.nodes.map((node) => (node.id === 4 ? { ...node, name } : node)),
    });
    const answers = await Promise.all(
      ['refunds', 'returns and refunds'].map((name) =>
        fetch(`${dev.url}/api/v1/editor`, {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ document: renamed(name), baseVersion: state.version }),
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const winner = answers[0]!.status === 200 ? 'refunds' : 'returns and refunds';
    expect(JSON.parse(readFileSync(treePath, 'utf8')).nodes[3].name).toBe(winner);
    // The page hears of it (pushed by the server) and offers to reload.
    await page.waitForSelector('#disk-conflict');
    await page.locator('#reload-from-disk').click();
    await page.locator('#disk-conflict').waitFor({ state: 'detached' });
    expect(await page.locator('[data-node-id="4"] .graph-node-name').textContent()).toContain(winner);
  }, 60_000);

  it('draws components used by name as groups, collapses one, edits a head init, reorders siblings with undo', async () => {
    const dir = mkdtempSync(join(scratch, 'components-'));
    writeFileSync(
      join(dir, 'desk.callbacks.ts'),
      'export const startForm = () => undefined;\nexport const resetForm = () => undefined;\n',
    );
    const file = join(dir, 'desk.json');
    writeFileSync(
      file,
      `${JSON.stringify(
        {
          format: 'treeagent-tree',
          version: 1,
          name: 'desk',
          module: './desk.callbacks.ts',
          components: {
            address: {
              nodes: [
                { id: 1, type: 'head', name: 'address head' },
                {
                  id: 2,
                  parent: 1,
                  type: 'emit',
                  name: 'ask address',
                  chunks: ['my address changed'],
                  emit: { message: { type: 'static', content: 'Your new address?' } },
                },
              ],
            },
          },
          nodes: [
            { id: 1, type: 'root' },
            { id: 2, parent: 1, type: 'agent', name: 'desk', isPrimary: true },
            {
              id: 3,
              parent: 2,
              type: 'emit',
              name: 'hours',
              chunks: ['opening hours'],
              emit: { message: { type: 'static', content: '9 to 18.' } },
            },
            {
              id: 4,
              parent: 2,
              type: 'emit',
              name: 'prices',
              chunks: ['how much'],
              emit: { message: { type: 'static', content: 'From 10.' } },
            },
            { id: 5, parent: 2, type: 'component', name: 'move', use: 'address', idBase: 100 },
            { id: 6, parent: 2, type: 'component', name: 'form' },
            { id: 7, parent: 6, type: 'head', name: 'form head' },
            {
              id: 8,
              parent: 7,
              type: 'emit',
              name: 'form entry',
              chunks: ['fill the form'],
              emit: { message: { type: 'static', content: 'Name?' } },
            },
          ],
        },
        null,
        2,
      )}\n`,
    );
    const server = await startDev(file, { port: '0', data: join(dir, 'data') }, quietOutput);
    try {
      await page.goto(`${server.url}/staff/editor`);
      await page.waitForSelector('body.is-ready');
      await waitChecked(page);
      // The component used by name is drawn: its group, its node (read-only, dashed).
      expect(await page.locator('.graph-group[data-group-id="5"]').textContent()).toContain('uses “address”');
      expect(await page.locator('[data-node-id="102"]').getAttribute('class')).toContain('is-instance');
      expect(await page.locator('.graph-group[data-group-id="6"]').count()).toBe(1);

      // Collapse a group: one box in place of its nodes; expand it again.
      await page
        .locator('.graph-group[data-group-id="6"] .graph-group-collapse')
        .dispatchEvent('pointerdown');
      await page.waitForSelector('[data-folded-group-id="6"]');
      expect(await page.locator('[data-node-id="8"]').count()).toBe(0);
      expect(await page.locator('[data-folded-group-id="6"]').textContent()).toContain('1 node inside');
      await page.locator('[data-folded-group-id="6"] .graph-collapse').dispatchEvent('pointerdown');
      await page.waitForSelector('[data-node-id="8"]');

      // A node of the used component is read-only, with the way to edit it.
      await page.locator('[data-node-id="102"] .graph-node-box').click();
      await page.waitForSelector('#instance-note');
      expect(await page.locator('#node-name').isDisabled()).toBe(true);

      // The head's init, on the component's inspector.
      await page.locator('.graph-group[data-group-id="6"] .graph-group-label').click();
      await page.waitForSelector('#component-section');
      await page.locator('#head-init').selectOption('startForm');
      await waitChecked(page);
      await page.screenshot({ path: `${SCREENSHOTS}editor-components.png` });
      expect(await page.locator('#editor-status').textContent()).toBe('Unsaved changes');

      // Make the used component explicit: same ids, now editable.
      await page.locator('.graph-group[data-group-id="5"] .graph-group-label').click();
      await page.locator('#make-explicit').click();
      await waitChecked(page);
      await page.locator('[data-node-id="102"] .graph-node-box').click();
      await page.waitForSelector('#node-form .node-form-id:text("#102")');
      expect(await page.locator('#instance-note').count()).toBe(0);
      expect(await page.locator('#node-name').isDisabled()).toBe(false);

      // Sibling order: prices before hours, drawn so, undone and redone.
      await selectNode(page, 4);
      expect(await page.locator('#sibling-position').textContent()).toBe('2 of 4 siblings');
      const x = async (id: number) => (await page.locator(`[data-node-id="${id}"]`).boundingBox())!.x;
      expect(await x(3)).toBeLessThan(await x(4));
      await page.locator('#move-up').click();
      await waitChecked(page);
      expect(await page.locator('#sibling-position').textContent()).toBe('1 of 4 siblings');
      expect(await page.locator('#move-up').isDisabled()).toBe(true);
      expect(await x(4)).toBeLessThan(await x(3));
      await page.locator('#undo').click();
      await waitChecked(page);
      expect(await x(3)).toBeLessThan(await x(4));
      await page.locator('#redo').click();
      await waitChecked(page);
      expect(await x(4)).toBeLessThan(await x(3));

      // At 1280 px nothing overflows sideways and the toolbar is on screen.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280);
      expect(await page.locator('#save').isVisible()).toBe(true);

      await page.locator('#save').click();
      await page.waitForSelector('#editor-status:text-is("Saved")');
      const saved = JSON.parse(readFileSync(file, 'utf8')) as {
        nodes: { id: number; parent?: number; use?: string; callbacks?: Record<string, string> }[];
      };
      expect(saved.nodes.filter((node) => node.parent === 2).map((node) => node.id)).toEqual([4, 3, 5, 6]);
      expect(saved.nodes.find((node) => node.id === 7)!.callbacks).toEqual({ init: 'startForm' });
      expect(saved.nodes.find((node) => node.id === 5)!.use).toBeUndefined();
      expect(saved.nodes.find((node) => node.id === 102)).toMatchObject({ parent: 101, name: 'ask address' });
    } finally {
      await server.close();
    }
  }, 90_000);

  it('records a chat as a YAML conversation test that treeagent test passes', async () => {
    await page.goto(`${dev.url}/`);
    await page.waitForSelector('body.is-ready');
    await page.locator('#new-chat').click();
    // The restored conversation goes once the new session is created (a request): count turns after that.
    await expect.poll(() => page.locator('.turn').count()).toBe(0);
    await chat('I want to return a product');
    await chat('where is my order?');
    await chat('what is the weather like?');
    const download = page.waitForEvent('download');
    await page.locator('#save-test').click();
    const file = join(scratch, 'recorded.yaml');
    await (await download).saveAs(file);
    const yaml = readFileSync(file, 'utf8');
    expect(yaml).toContain('- say: "I want to return a product"');
    expect(yaml).toContain(`message: { equals: ${JSON.stringify(INTENTS.returns.answer)} }`);
    const output = capture();
    const lines = output.lines;
    expect(await main(['test', treePath, file], output), lines.join('\n')).toBe(0);
    expect(lines.join('\n')).toMatch(/1 passed/);
  }, 60_000);
  it('asks before a reload or another page drops unsaved changes', async () => {
    await openEditor(page, dev.url);
    await selectNode(page, 3);
    await set('#node-name', 'postage');
    await waitChecked(page);
    const asked = dismissNextDialog(page);
    // Dismissed: the page stays, with the change.
    await page.reload({ timeout: 2000 }).catch(() => {});
    expect((await asked).type).toBe('beforeunload');
    expect(await page.locator('#node-name').inputValue()).toBe('postage');

    // A page of the top bar (the app follows it without unloading): asked too, in the page's
    // language; refused, the editor stays with the change.
    const question = dismissNextDialog(page);
    await page.locator('.page-nav a[href="/staff/analytics"]').click();
    expect(await question).toEqual({
      type: 'confirm',
      message: 'Leave the editor? Your unsaved changes will be lost.',
    });
    expect(new URL(page.url()).pathname).toBe('/staff/editor');
    expect(await page.locator('#node-name').inputValue()).toBe('postage');
    await page.locator('#tree-graph').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+z');
    await waitChecked(page);
    expect(await page.locator('#editor-status').textContent()).toBe('Saved');
  }, 60_000);
});
