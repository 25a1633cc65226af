import { readFileSync, writeFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServer } from './commands/dev.js';
import {
  type EditorFixture,
  openEditor,
  screenshotDirectory,
  selectNode,
  startEditorFixture,
  waitChecked,
} from './test-support/editor-browser.js';

/**
 * Sibling order by drag and drop and by keyboard, undo/redo across every kind of edit, and the
 * keyboard shortcuts with their "?" dialog, in Debian's Chromium against `treeagent dev` on a JSON
 * tree file (docs/editor.md). Takes docs/screenshots/editor-shortcuts{,-phone}.png with
 * TREEAGENT_UPDATE_SCREENSHOTS=1.
 */

const SCREENSHOTS = screenshotDirectory('editor-order');

const TREE = {
  format: 'treeagent-tree',
  version: 1,
  nodes: [
    { id: 1, type: 'root', name: 'root' },
    { id: 2, type: 'agent', parent: 1, name: 'bakery', isPrimary: true },
    {
      id: 3,
      type: 'emit',
      parent: 2,
      name: 'bread',
      chunks: ['which bread do you bake'],
      emit: { message: { type: 'static', content: 'Rye and wheat.' } },
    },
    {
      id: 4,
      type: 'emit',
      parent: 2,
      name: 'cakes',
      chunks: ['do you make birthday cakes'],
      emit: { message: { type: 'static', content: 'Yes, to order.' } },
    },
    {
      id: 5,
      type: 'emit',
      parent: 2,
      name: 'hours',
      chunks: ['when are you open'],
      emit: { message: { type: 'static', content: 'From 7 to 19.' } },
    },
    {
      id: 6,
      type: 'emit',
      parent: 3,
      name: 'rye',
      chunks: ['rye bread'],
      emit: { message: { type: 'static', content: 'Rye every day.' } },
    },
  ],
};
const ORIGINAL = `${JSON.stringify(TREE, null, 2)}\n`;

let fixture: EditorFixture;
let dev: DevServer;
let browser: Browser;
let treePath: string;

beforeAll(async () => {
  fixture = await startEditorFixture('bakery', TREE);
  ({ dev, browser, treePath } = fixture);
}, 60_000);

afterAll(() => fixture?.close());

/** The children of the agent in the saved file, in order. */
const savedOrder = () =>
  (JSON.parse(readFileSync(treePath, 'utf8')).nodes as { id: number; parent?: number }[])
    .filter((node) => node.parent === 2)
    .map((node) => node.id);

/** The children of the agent as the graph draws them, left to right. */
async function drawnOrder(page: Page): Promise<number[]> {
  const boxes: { id: number; x: number }[] = [];
  for (const id of [3, 4, 5]) {
    const box = await page.locator(`[data-node-id="${id}"] .graph-node-box`).boundingBox();
    boxes.push({ id, x: box!.x });
  }
  return boxes.sort((a, b) => a.x - b.x).map((box) => box.id);
}

/** Drags node `id` with the mouse to a point of node `target`'s box (`at` from 0, its left edge, to 1, its right edge), or to a canvas point. */
async function drag(page: Page, id: number, target: number | { x: number; y: number }, at = 0.5) {
  const from = (await page.locator(`[data-node-id="${id}"] .graph-node-box`).boundingBox())!;
  let to: { x: number; y: number };
  if (typeof target === 'number') {
    const box = (await page.locator(`[data-node-id="${target}"] .graph-node-box`).boundingBox())!;
    to = { x: box.x + box.width * at, y: box.y + box.height / 2 };
  } else to = target;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 8 });
  // The drop indicator under the pointer, if any (none over the background).
  const indicator = (await page.locator('.graph-drop').count())
    ? await page.locator('.graph-drop').getAttribute('class')
    : null;
  await page.mouse.up();
  return indicator;
}

async function save(page: Page): Promise<void> {
  const reloaded = dev.nextReload();
  await page.keyboard.press('Control+s');
  await page.waitForSelector('#editor-status:text-is("Saved")');
  await reloaded;
}

describe('sibling order, undo/redo and shortcuts', () => {
  it('reorders siblings by drag and drop (refusing anything but a sibling, with the reason) and by Alt+arrows; saved in the file', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await openEditor(page, dev.url);
    expect(await drawnOrder(page)).toEqual([3, 4, 5]);

    // Node 5 dropped on the left edge of node 3: before it.
    expect(await drag(page, 5, 3, 0.1)).toContain('is-before');
    await expect.poll(() => drawnOrder(page)).toEqual([5, 3, 4]);
    await waitChecked(page);

    // Node 6 (a child of 3) dropped on the edge of 4: not a sibling, refused with the reason.
    expect(await drag(page, 6, 4, 0.9)).toContain('is-after');
    await page.waitForSelector('#editor-notice');
    expect(await page.locator('#editor-notice').textContent()).toContain('not siblings');
    // Dropped on no node: refused too.
    const canvas = (await page.locator('#tree-graph').boundingBox())!;
    await drag(page, 4, { x: canvas.x + 20, y: canvas.y + canvas.height - 20 });
    expect(await page.locator('#editor-notice').textContent()).toContain('Dropped on no node');
    expect(await drawnOrder(page)).toEqual([5, 3, 4]);

    // Keyboard: node 4 selected, Alt+← twice puts it first.
    await selectNode(page, 4);
    await page.keyboard.press('Alt+ArrowLeft');
    await page.keyboard.press('Alt+ArrowLeft');
    await expect.poll(() => drawnOrder(page)).toEqual([4, 5, 3]);
    await waitChecked(page);
    await save(page);
    expect(savedOrder()).toEqual([4, 5, 3]);
    // Node 6 stays under 3, after it in the file.
    const ids = (JSON.parse(readFileSync(treePath, 'utf8')).nodes as { id: number }[]).map((node) => node.id);
    expect(ids.indexOf(6)).toBe(ids.indexOf(3) + 1);
    await page.close();
  }, 60_000);

  it('undoes and redoes every kind of edit (field, chunks, add, delete, reorder) with the keys and the buttons; the keys listed under ?', async () => {
    writeFileSync(treePath, ORIGINAL);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await openEditor(page, dev.url);
    await expect.poll(() => drawnOrder(page)).toEqual([3, 4, 5]);

    await selectNode(page, 4);
    // An inspector field.
    await page.locator('#node-name').fill('cakes and pies');
    await page.locator('#node-name').press('Enter');
    await waitChecked(page);
    // Chunks.
    await page.locator('#chunk-paste').fill('a cake for a wedding\napple pie');
    await page.locator('#add-chunks').click();
    await waitChecked(page);
    // Reorder (drag), then keyboard: ↑ selects the agent, A adds a child, Delete deletes it (confirmed).
    await page.locator('#tree-graph').focus();
    await drag(page, 4, 3, 0.1);
    await expect.poll(() => drawnOrder(page)).toEqual([4, 3, 5]);
    await page.locator('#graph-search').focus();
    await page.locator('#graph-search').blur();
    await page.keyboard.press('ArrowUp');
    await page.waitForSelector('#node-form .node-form-id:text("#2")');
    await page.keyboard.press('a');
    await page.waitForSelector('#node-form .node-form-id:text("#7")');
    await page.waitForSelector('[data-node-id="7"]');
    await page.keyboard.press('Delete');
    await page.waitForSelector('[data-node-id="7"]', { state: 'detached' });
    await waitChecked(page);
    expect(await page.locator('#editor-status').textContent()).toBe('Unsaved changes');

    // Undo all six steps (keys and button): back to the file as it is on disk.
    await page.keyboard.press('Control+z'); // the delete
    await page.waitForSelector('[data-node-id="7"]');
    await page.keyboard.press('Control+z'); // the add
    await page.waitForSelector('[data-node-id="7"]', { state: 'detached' });
    await page.locator('#undo').click(); // the reorder
    await expect.poll(() => drawnOrder(page)).toEqual([3, 4, 5]);
    await page.keyboard.press('Control+z'); // the chunks
    await page.keyboard.press('Control+z'); // the name
    await page.waitForSelector('#editor-status:text-is("Saved")');
    expect(await page.locator('#undo').isDisabled()).toBe(true);

    // Redo all: Ctrl+Shift+Z, Ctrl+Y and the button.
    await page.keyboard.press('Control+Shift+z');
    await page.keyboard.press('Control+y');
    await page.locator('#redo').click();
    await expect.poll(() => drawnOrder(page)).toEqual([4, 3, 5]);
    await page.keyboard.press('Control+y');
    await page.waitForSelector('[data-node-id="7"]');
    await page.keyboard.press('Control+y');
    await page.waitForSelector('[data-node-id="7"]', { state: 'detached' });
    await waitChecked(page);
    await save(page);
    const saved = JSON.parse(readFileSync(treePath, 'utf8')) as {
      nodes: { id: number; name?: string; chunks?: string[]; parent?: number }[];
    };
    expect(savedOrder()).toEqual([4, 3, 5]);
    expect(saved.nodes.find((node) => node.id === 4)).toMatchObject({
      name: 'cakes and pies',
      chunks: ['do you make birthday cakes', 'a cake for a wedding', 'apple pie'],
    });
    expect(saved.nodes.some((node) => node.id === 7)).toBe(false);

    // ? lists the shortcuts.
    await page.keyboard.press('?');
    await page.waitForSelector('#shortcuts-dialog[open]');
    const listed = await page.locator('#shortcuts-dialog').textContent();
    for (const text of ['Ctrl+S', 'Ctrl+Z', 'Ctrl+Shift+Z', 'Alt+↑', 'Delete', 'Add a child'])
      expect(listed).toContain(text);
    await page.screenshot({ path: `${SCREENSHOTS}editor-shortcuts.png` });
    await page.keyboard.press('Escape');
    await page.locator('#shortcuts-dialog[open]').waitFor({ state: 'detached' });
    await page.close();

    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await openEditor(phone, dev.url);
    await phone.locator('#shortcuts-button').click();
    await phone.waitForSelector('#shortcuts-dialog[open]');
    await phone.screenshot({ path: `${SCREENSHOTS}editor-shortcuts-phone.png` });
    await phone.close();
  }, 60_000);

  it("labels the inspector's schema fields in the page's language, with the property name as the hint", async () => {
    for (const [lang, label] of [
      ['it', 'Obiettivo della conversazione'],
      ['es', 'Objetivo de la conversación'],
      ['en', 'Conversation goal'],
    ] as const) {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      await page.goto(`${dev.url}/staff/editor?lang=${lang}`);
      await page.waitForSelector('body.is-ready');
      await selectNode(page, 1);
      const field = page.locator('label.schema-field:has(#field-conversationGoal) > span');
      expect(await field.textContent()).toBe(`${label} conversationGoal`);
      expect(await field.locator('code').textContent()).toBe('conversationGoal');
      if (lang === 'it') {
        await page.locator('#schema-section').scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SCREENSHOTS}editor-field-labels-it.png` });
      }
      await page.close();
    }
  }, 60_000);
});
