import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TreeAgent } from '@treeagent/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bikeShopTree } from '../../../examples/src/bike-shop/tree.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import {
  overflowing,
  type PageElement,
  SMALL_SCREENS,
  topBarProblems,
  touchContext,
  untappable,
} from './test-support/layout.js';
import { WEB_DIRECTORY } from './web-directory.js';

/**
 * The chat page is what end users see, often on a phone: at 390×844 (a phone) and 768×1024 (a
 * tablet), with touch, in Debian's Chromium, nothing is wider than the screen, and options, the
 * form's answers, attachments, the message box and the debug toggle can be tapped (the point at the
 * middle of each is that element, not something drawn over it). Takes docs/screenshots/chat-phone.png
 * with TREEAGENT_UPDATE_SCREENSHOTS=1.
 */

// The page's globals, for the functions run in it: the type check of the repository has no DOM lib.
declare const window: { innerWidth: number };
declare function getComputedStyle(element: PageElement): { fontSize: string };

const SCREENSHOTS =
  process.env.TREEAGENT_UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : `${mkdtempSync(join(tmpdir(), 'treeagent-screenshots-'))}/`;
const LONG_NAME = 'preventivo-riparazione-bicicletta-da-corsa-carbonio-versione-definitiva-firmata.pdf';
const LONG_WORD = `https://www.ciclofficina-rossi.example/ordini/${'a'.repeat(80)}`;

async function say(page: Page, text: string): Promise<void> {
  const turns = await page.locator('.turn').count();
  await page.locator('#message-input').fill(text);
  await page.locator('#send-button').tap();
  await page.locator('.turn').nth(turns).locator('.turn-meta').waitFor();
}

describe.each(SMALL_SCREENS)(
  'the chat page on a $width×$height $device (Chromium, touch)',
  ({ width, height, device }) => {
    let browser: Browser;
    let server: RunningServer;
    let page: Page;

    beforeAll(async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      // Tuesday 1 December 2026 in Rome, as in form.browser.test.ts: "domani" is the 2nd.
      const tree = bikeShopTree({ now: () => new Date('2026-12-01T09:00:00Z') });
      server = await serve({
        agent: new TreeAgent({ tree }),
        hostname: '127.0.0.1',
        port: 0,
        debug: true,
        web: { directory: WEB_DIRECTORY },
        logger: memoryLogger(),
      });
      browser = await launchChromium();
      // The inspector slides in: touchContext reduces motion, so it is measured once in place.
      const context = await touchContext(browser, { width, height });
      page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(server.url);
      await page.waitForSelector('body.is-ready');
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('the bar keeps every action on screen and tappable, the message box does not zoom the page', async () => {
      expect(await overflowing(page)).toEqual([]);
      for (const id of ['#new-chat', '#save-test', '#toggle-debug', '#toggle-tree', '#send-button'])
        expect(await untappable(page.locator(id))).toBeNull();
      expect(await untappable(page.locator('.attach-button'))).toBeNull();
      // Every page link shows whole beside or below the actions, none hidden in a strip to scroll.
      expect(await topBarProblems(page)).toEqual([]);
      // Phones zoom into a text box whose font is under 16 px, and the page then scrolls sideways.
      const fontSize = await page
        .locator('#message-input')
        .evaluate((box) => getComputedStyle(box as unknown as PageElement).fontSize);
      expect(Number.parseFloat(fontSize)).toBeGreaterThanOrEqual(16);
      // No keyboard shortcuts advertised to a touch screen.
      expect(await page.locator('.composer-hint kbd').first().isVisible()).toBe(false);
    });

    it('options fit the screen and are big enough to tap; tapping one answers', async () => {
      await say(page, 'Ciao!');
      const options = page.locator('.turn').last().locator('.option');
      expect(await options.count()).toBeGreaterThan(1);
      for (const option of await options.all()) expect(await untappable(option, 40)).toBeNull();
      expect(await overflowing(page)).toEqual([]);
      const turns = await page.locator('.turn').count();
      await options.filter({ hasText: 'Spedizioni' }).tap();
      await page.locator('.turn').nth(turns).locator('.turn-meta').waitFor();
      await expect(
        page.locator('.turn').last().locator('.msg--agent').first().textContent(),
      ).resolves.toMatch(/spedizion/i);
    });

    it('the repair form asks to confirm with options that can be tapped, and books', async () => {
      await say(
        page,
        'vorrei prenotare una riparazione per la mia mtb, il cambio non va. Passo domani alle 10, il mio numero è +39 333 1234567',
      );
      const confirm = page.locator('.turn').last().locator('.option');
      await expect(confirm.allTextContents()).resolves.toEqual(['Sì', 'No']);
      for (const option of await confirm.all()) expect(await untappable(option, 40)).toBeNull();
      expect(await overflowing(page)).toEqual([]);
      const turns = await page.locator('.turn').count();
      await confirm.first().tap();
      await page.locator('.turn').nth(turns).locator('.turn-meta').waitFor();
      expect(await page.locator('.turn').last().textContent()).toMatch(/prenotat|confermat/i);
    });

    it('a file with a long name and a message with a long word stay inside the screen', async () => {
      await page.locator('#file-input').setInputFiles({
        name: LONG_NAME,
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
      });
      const pending = page.locator('.composer .file-chip, .composer .pending-file').first();
      await pending.waitFor();
      expect(await overflowing(page)).toEqual([]);
      await say(page, LONG_WORD);
      const sent = page.locator('.turn').last().locator('.msg--user .file-chip');
      await sent.waitFor();
      expect(await untappable(sent, 24)).toBeNull();
      const bubble = await page.locator('.turn').last().locator('.msg--user .bubble').boundingBox();
      const chip = await sent.boundingBox();
      expect(chip!.x + chip!.width).toBeLessThanOrEqual(bubble!.x + bubble!.width + 1);
      expect(await overflowing(page)).toEqual([]);
      if (device === 'phone') await page.screenshot({ path: `${SCREENSHOTS}chat-phone.png` });
    });

    it('the debug toggle opens the inspector inside the screen, with nothing wider than it, and closes it', async () => {
      const toggle = page.locator('#toggle-debug');
      expect(await untappable(toggle)).toBeNull();
      await toggle.tap();
      const side = page.locator('#side');
      await side.waitFor();
      await page.locator('#panel-debug').waitFor();
      expect(await overflowing(page)).toEqual([]);
      const widths = await side.evaluate((panel) => {
        const inner = (panel as unknown as PageElement).querySelector('#panel-debug') ?? panel;
        return { panel: panel.clientWidth, content: inner.scrollWidth, screen: window.innerWidth };
      });
      expect(widths.content).toBeLessThanOrEqual(widths.panel + 1);
      expect(await untappable(page.locator('#side-close'))).toBeNull();
      await page.locator('#side-close').tap();
      await expect(side.isHidden()).resolves.toBe(true);
      // Each turn's own Debug button too.
      expect(await untappable(page.locator('.turn-meta .inspect').last(), 24)).toBeNull();
    });
  },
);
