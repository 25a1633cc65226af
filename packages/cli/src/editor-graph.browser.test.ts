import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevServer, startDev } from './commands/dev.js';
import {
  type EditorFixture,
  openEditor,
  overlappingLabels,
  quietOutput,
  screenshotDirectory,
  startEditorFixture,
  visibleLabels,
} from './test-support/editor-browser.js';
import { largeTree } from './test-support/large-tree.js';

/**
 * The editor's graph on a large tree in Debian's Chromium (docs/editor.md, *The graph*): at Fit, a
 * 152-node tree is drawn with every visible label at 11 px or more on screen and no two labels
 * overlapping, deeper levels folded (▸ unfolds them), truncated names with the full name in the
 * tooltip. The bike-shop demo too. Takes docs/screenshots/editor-graph-fit{,-phone}.png and editor-graph-demo.png with TREEAGENT_UPDATE_SCREENSHOTS=1.
 */

const SCREENSHOTS = screenshotDirectory('editor-graph');

let fixture: EditorFixture;
let dev: DevServer;
let browser: Browser;

beforeAll(async () => {
  fixture = await startEditorFixture('helpdesk', largeTree());
  ({ dev, browser } = fixture);
}, 60_000);

afterAll(() => fixture?.close());

async function expectLegible(page: Page): Promise<void> {
  const labels = await visibleLabels(page);
  expect(labels.length).toBeGreaterThan(1);
  const small = labels.filter((label) => label.px < 11);
  expect(
    small,
    `labels under 11 px: ${small
      .slice(0, 5)
      .map((l) => `${l.text} (${l.px.toFixed(1)} px)`)
      .join(', ')}`,
  ).toEqual([]);
  expect(overlappingLabels(labels)).toEqual([]);
}

describe('the graph at Fit', () => {
  for (const viewport of [
    { width: 1280, height: 800, shot: 'editor-graph-fit.png' },
    { width: 390, height: 844, shot: 'editor-graph-fit-phone.png' },
  ])
    it(`draws a 152-node tree legibly at ${viewport.width} px: labels ≥ 11 px, none overlapping, deeper levels folded`, async () => {
      const page = await (await browser.newContext({ viewport })).newPage();
      await openEditor(page, dev.url);
      await expectLegible(page);
      // Deeper levels are folded: fewer boxes than nodes, and a folded node unfolds on its ▸.
      const shown = await page.locator('#tree-graph .graph-node').count();
      expect(shown).toBeLessThan(152);
      // Zoomed out as far as it goes, the labels still hold.
      for (let step = 0; step < 12; step++) await page.locator('button[aria-label="Zoom out"]').click();
      await expectLegible(page);
      await page.locator('.graph-tools button:text-is("Fit")').click();
      await expectLegible(page);
      await page.screenshot({ path: `${SCREENSHOTS}${viewport.shot}` });
      const folded = page.locator('#tree-graph [aria-label^="Expand node"]').first();
      await folded.dispatchEvent('pointerdown');
      await expect.poll(() => page.locator('#tree-graph .graph-node').count()).toBeGreaterThan(shown);
      // Truncated names keep the full text in the tooltip.
      const title = await page.locator('#tree-graph [data-node-id="3"] title').textContent();
      expect(title).toContain('billing questions and requests');
      await page.close();
    });
});

describe('the demo tree at Fit', () => {
  it('draws the bike-shop demo (components as groups) legibly at 1280 px', async () => {
    const demo = fileURLToPath(new URL('../../../examples/src/bike-shop/tree.ts', import.meta.url));
    const server = await startDev(
      demo,
      { port: '0', data: mkdtempSync(join(tmpdir(), 'bike-shop-data-')) },
      quietOutput,
    );
    try {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      await openEditor(page, server.url);
      await expectLegible(page);
      await page.locator('.graph-tools button:text-is("Fit")').click();
      await expectLegible(page);
      await page.screenshot({ path: `${SCREENSHOTS}editor-graph-demo.png` });
      await page.close();
    } finally {
      await server.close();
    }
  }, 60_000);
});
