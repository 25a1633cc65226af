import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite, type SqliteStores } from '@treeagent/sqlite';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorDirectory } from './operators/operator-accounts.js';
import { type RunningServer, serve } from './serve.js';
import { axeViolations } from './test-support/axe.js';
import { launchChromium } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { memoryTreeEditor } from './test-support/memory-tree-editor.js';
import { OPERATOR_PASSWORDS, testOperatorAccounts } from './test-support/operators.js';
import { EDITED_TREE, seedConversations } from './test-support/staff-pages.js';
import { widgetAgent } from './test-support/widget-agent.js';
import { startWidgetSite, type WidgetSite } from './test-support/widget-site.js';
import { WEB_DIRECTORY } from './web-directory.js';

/**
 * Accessibility in Debian's Chromium: axe-core (WCAG 2.1 A and AA) finds no violation on the widget
 * (closed, open, in a conversation) and on every page of the web app — the customer's chat, the
 * staff's login, and each staff page after an admin's login, with data to show — and the widget is
 * used by keyboard alone through a form. Mocks (labelled): the widget shop's exact embedder and
 * scripted model.
 */

/** Every staff page, and what shows it is drawn with its data. */
const STAFF_PAGES = [
  { path: '/staff/console', shown: '#console-page .console-queue' },
  { path: '/staff/analytics', shown: '#analytics-page .report-card' },
  { path: '/staff/review', shown: '#review-page' },
  { path: '/staff/audit', shown: '#audit-page .audit-row' },
  { path: '/staff/tree', shown: '#tree-page' },
  { path: '/staff/sources', shown: '#sources-page' },
  { path: '/staff/editor', shown: '#editor-page .editor-file' },
] as const;

let browser: Browser;
let server: RunningServer;
let site: WidgetSite;
let dir: string;
let stores: SqliteStores;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'treeagent-accessibility-'));
  stores = openSqlite(dir);
  site = await startWidgetSite(() => server.url);
  server = await serve({
    agent: widgetAgent({ sessionStore: stores.sessionStore }),
    hostname: '127.0.0.1',
    port: 0,
    web: { directory: WEB_DIRECTORY },
    logger: memoryLogger(),
    operators: { directory: operatorDirectory(await testOperatorAccounts()) },
    analytics: { treeFile: join(dir, 'tree.ts'), utterancesFile: join(dir, 'utterances.tsv') },
    editor: memoryTreeEditor(EDITED_TREE),
    sources: { store: stores.sourceStore, scheduleIntervalMs: 0 },
    widget: { origins: [site.url] },
  });
  // Conversations for the analytics and the review, one waiting for an operator in the console.
  await seedConversations(server.url, [['hello', 'story'], ['hello', 'a human please'], ['what is this?']]);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close({ timeoutMs: 1000 });
  await site?.close();
  await stores?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('axe-core: no WCAG 2.1 AA violation (Chromium)', () => {
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => errors.push(String(error)));
  });

  afterAll(async () => {
    await context?.close();
  });

  it('the widget on a site: closed, open, and with a conversation', async () => {
    await page.goto(site.url);
    await page.locator('treeagent-widget .launcher').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.locator('treeagent-widget .launcher').click();
    // Once the panel's opening animation is over (mid-fade its colours have no contrast yet).
    await page
      .locator('treeagent-widget .panel')
      .evaluate((panel) =>
        Promise.all(
          panel.getAnimations().map((animation: { finished: Promise<unknown> }) => animation.finished),
        ),
      );
    expect(await axeViolations(page)).toEqual([]);
    for (const message of ['guide', 'receipt']) {
      await page.locator('treeagent-widget textarea').fill(message);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('treeagent-widget .msg--assistant').count()).toBeGreaterThan(0);
      await expect.poll(() => page.locator('treeagent-widget .send').isDisabled()).toBe(false);
    }
    await page.locator('treeagent-widget .sources summary').first().click();
    expect(await axeViolations(page)).toEqual([]);
  });

  it("the customer's chat page and the staff's login form", async () => {
    await page.goto(server.url);
    await page.waitForSelector('body.is-ready');
    await page.locator('#message-input').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`${server.url}/staff/console`);
    await page.locator('#operator-login').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.fill('#operator-login-name', 'anna');
    await page.fill('#operator-password', OPERATOR_PASSWORDS.anna);
    await page.locator('#operator-login button[type=submit]').click();
    await page.locator('#console-page').waitFor();
  });

  it.each(STAFF_PAGES)('$path, after the login', async ({ path, shown }) => {
    await page.goto(`${server.url}${path}`);
    await page.waitForSelector('body.is-ready');
    await page.locator(shown).first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  it('/staff/console with a waiting session open', async () => {
    await page.goto(`${server.url}/staff/console`);
    await page.locator('#queue-list button, #queue-list a').first().click();
    await page.locator('#reply-form').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('the widget by keyboard alone (Chromium)', () => {
  it('Tab reaches the launcher, Enter opens it, a form is answered and confirmed, Esc closes it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const shadow = 'document.querySelector("treeagent-widget").shadowRoot';
    const active = () => page.evaluate(`${shadow}.activeElement?.className ?? null`);
    const activeText = () => page.evaluate(`${shadow}.activeElement?.textContent ?? null`);
    const insidePanel = () =>
      page.evaluate(`${shadow}.querySelector(".panel").contains(${shadow}.activeElement)`);
    try {
      await page.goto(site.url);
      await page.locator('treeagent-widget .launcher').waitFor();
      // The page's link, then the launcher.
      for (let tab = 0; tab < 5 && (await active()) !== 'launcher'; tab++) await page.keyboard.press('Tab');
      expect(await active()).toBe('launcher');
      await page.keyboard.press('Enter');
      expect(await page.evaluate(`${shadow}.activeElement?.tagName`)).toBe('TEXTAREA');
      const answers = () => page.locator('treeagent-widget .msg--assistant .text').allTextContents();
      const type = async (text: string, answer: string) => {
        await page.keyboard.type(text);
        await page.keyboard.press('Enter');
        await expect.poll(async () => (await answers()).at(-1)).toBe(answer);
        await expect.poll(() => page.locator('treeagent-widget .send').isDisabled()).toBe(false);
      };
      await type('book a repair', "Sure, let's book the workshop. What kind of bike?");
      await type('road bike', 'Your e-mail address?');
      await type('ann@example', 'That e-mail address does not look valid. Your e-mail address?');
      await type('ann@example.com', 'Summary:\n- bike: road\n- email: ann@example.com\nIs that right?');
      // Back from the message box to the summary's "Yes", never leaving the panel.
      for (let tab = 0; tab < 12 && (await activeText()) !== 'Yes'; tab++) {
        await page.keyboard.press('Shift+Tab');
        expect(await insidePanel(), `${await active()}: ${await activeText()}`).toBe(true);
      }
      expect(await activeText()).toBe('Yes');
      await page.keyboard.press('Enter');
      await expect
        .poll(async () => (await answers()).at(-1))
        .toBe('Booked: your road bike, we write to ann@example.com.');
      await page.keyboard.press('Escape');
      expect(await page.locator('treeagent-widget .panel').isHidden()).toBe(true);
      expect(await active()).toBe('launcher');
    } finally {
      await context.close();
    }
  });
});

describe("the console's queue tabs by keyboard (Chromium)", () => {
  it('one tab stop; the arrows, Home and End select the tab and show its panel', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const focused = () => page.evaluate<string | null>('document.activeElement?.id ?? null');
    const selected = () =>
      page.locator('#console-page [role="tab"][aria-selected="true"]').getAttribute('id');
    try {
      await page.goto(`${server.url}/staff/console`);
      await page.fill('#operator-login-name', 'anna');
      await page.fill('#operator-password', OPERATOR_PASSWORDS.anna);
      await page.locator('#operator-login button[type=submit]').click();
      await page.locator('#queue-list button').first().waitFor();
      // The selected tab is the tablist's one stop, and names the panel it controls.
      expect(await page.locator('#queue-tab-open').getAttribute('tabindex')).toBe('0');
      expect(await page.locator('#queue-tab-closed').getAttribute('tabindex')).toBe('-1');
      expect(await page.locator('#queue-tab-open').getAttribute('aria-controls')).toBe('queue-panel');
      expect(await page.locator('#queue-panel').getAttribute('aria-labelledby')).toBe('queue-tab-open');
      await page.focus('#queue-tab-open');
      await page.keyboard.press('ArrowRight');
      expect(await focused()).toBe('queue-tab-closed');
      expect(await selected()).toBe('queue-tab-closed');
      await page.locator('#queue-empty').waitFor();
      expect(await page.textContent('#queue-empty')).toBe('No closed handoffs.');
      expect(await page.locator('#queue-panel').getAttribute('aria-labelledby')).toBe('queue-tab-closed');
      await page.keyboard.press('ArrowRight');
      expect(await focused()).toBe('queue-tab-open');
      expect(await selected()).toBe('queue-tab-open');
      await page.locator('#queue-list button').first().waitFor();
      await page.keyboard.press('End');
      expect(await selected()).toBe('queue-tab-closed');
      await page.keyboard.press('Home');
      expect(await selected()).toBe('queue-tab-open');
      await page.keyboard.press('ArrowLeft');
      expect(await selected()).toBe('queue-tab-closed');
      // Tab leaves the tablist for the panel's first control.
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('queue-filter');
    } finally {
      await context.close();
    }
  });
});
