import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TreeAgent } from '@treeagent/core';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bikeShopTree } from '../../../examples/src/bike-shop/tree.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { WEB_DIRECTORY } from './web-directory.js';

/**
 * The chat page is what end users see, often on a phone: at 390×844 (a phone) and 768×1024 (a
 * tablet), with touch, in Debian's Chromium, nothing is wider than the screen, and options, the
 * form's answers, attachments, the message box and the debug toggle can be tapped (the point at the
 * middle of each is that element, not something drawn over it). Takes docs/screenshots/chat-phone.png
 * with TREEAGENT_UPDATE_SCREENSHOTS=1.
 */

/** A box on the screen, as `getBoundingClientRect()` gives it. */
interface Box {
  left: number;
  right: number;
  top: number;
  width: number;
  height: number;
}
/** An element of the page, as far as the functions run in it (`evaluate`) use one. */
interface PageElement {
  id: string;
  tagName: string;
  classList: Iterable<string>;
  className: string;
  textContent: string | null;
  clientWidth: number;
  scrollWidth: number;
  parentElement: PageElement | null;
  getBoundingClientRect(): Box;
  contains(other: PageElement | null): boolean;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
}
// The page's globals, for the functions run in it: the type check of the repository has no DOM lib.
declare const document: {
  documentElement: PageElement;
  body: PageElement;
  querySelectorAll(selector: string): Iterable<PageElement>;
  elementFromPoint(x: number, y: number): PageElement | null;
};
declare const window: { innerWidth: number; innerHeight: number };
declare function getComputedStyle(element: PageElement): { overflowX: string; fontSize: string };

const SCREENSHOTS =
  process.env.TREEAGENT_UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : `${mkdtempSync(join(tmpdir(), 'treeagent-screenshots-'))}/`;
const LONG_NAME = 'preventivo-riparazione-bicicletta-da-corsa-carbonio-versione-definitiva-firmata.pdf';
const LONG_WORD = `https://www.ciclofficina-rossi.example/ordini/${'a'.repeat(80)}`;

/**
 * Elements that stick out of the screen sideways, except inside something that clips or scrolls
 * them and itself fits (the page links' strip, an ellipsised name, a table that scrolls).
 */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    if (document.documentElement.scrollWidth > width)
      problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width} px`);
    const fits = (rect: Box) => rect.left >= -1 && rect.right <= width + 1;
    for (const element of document.querySelectorAll('.app *')) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || fits(rect)) continue;
      // What shows of it is cut to each ancestor that clips or scrolls: fine if one of those fits.
      let clipped = false;
      for (let clip = element.parentElement; clip && clip !== document.body; clip = clip.parentElement)
        if (getComputedStyle(clip).overflowX !== 'visible' && fits(clip.getBoundingClientRect()))
          clipped = true;
      if (clipped) continue;
      const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${[...element.classList].join('.')}`;
      problems.push(`${name} spans ${Math.round(rect.left)}..${Math.round(rect.right)} px of ${width}`);
    }
    return problems.slice(0, 10);
  });
}

/** Why `locator` cannot be tapped (off screen, covered, too small to touch), or null when it can. */
async function untappable(locator: Locator, minimum = 32): Promise<string | null> {
  return locator.evaluate((node, min) => {
    const element = node as unknown as PageElement;
    const rect = element.getBoundingClientRect();
    const label = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} "${(element.textContent ?? '').trim().slice(0, 30)}"`;
    if (rect.width === 0) return `${label} is not shown`;
    const x = rect.left + rect.width / 2;
    const y = rect.top + rect.height / 2;
    if (x < 0 || x > window.innerWidth || y < 0 || y > window.innerHeight) return `${label} is off screen`;
    const top = document.elementFromPoint(x, y);
    if (!top || !(element === top || element.contains(top)))
      return `${label} is covered by ${top?.tagName.toLowerCase()}.${top?.className}`;
    if (rect.height < min || rect.width < min)
      return `${label} is ${Math.round(rect.width)}×${Math.round(rect.height)} px: too small to touch`;
    return null;
  }, minimum);
}

async function say(page: Page, text: string): Promise<void> {
  const turns = await page.locator('.turn').count();
  await page.locator('#message-input').fill(text);
  await page.locator('#send-button').tap();
  await page.locator('.turn').nth(turns).locator('.turn-meta').waitFor();
}

describe.each([
  { width: 390, height: 844, device: 'phone' },
  { width: 768, height: 1024, device: 'tablet' },
])('the chat page on a $width×$height $device (Chromium, touch)', ({ width, height, device }) => {
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
    const context = await browser.newContext({
      viewport: { width, height },
      isMobile: true,
      hasTouch: true,
      colorScheme: 'light',
      // The inspector slides in: measured once it is in place.
      reducedMotion: 'reduce',
    });
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
    // The page links never run under the actions (they scroll sideways in their own strip).
    const links = await page.locator('.page-nav').boundingBox();
    const actions = await page.locator('.topbar-actions').boundingBox();
    expect(links!.x + links!.width).toBeLessThanOrEqual(actions!.x);
    expect(await untappable(page.locator('.page-link[aria-current="page"]'), 24)).toBeNull();
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
    await expect(page.locator('.turn').last().locator('.msg--agent').first().textContent()).resolves.toMatch(
      /spedizion/i,
    );
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
});
