import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TreeAgent } from '@treeagent/core';
import { openSqlite, type SqliteStores } from '@treeagent/sqlite';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helpTree } from '../../sources/src/test-support/crawl-scenario.js';
import { helpCenter, TestSite } from '../../sources/src/test-support/test-site.js';
import { operatorDirectory } from './operators/operator-accounts.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { OPERATOR_PASSWORDS, testOperatorAccounts } from './test-support/operators.js';
import { WEB_DIRECTORY } from './web-directory.js';

/**
 * The Sources page in Debian's Chromium: an admin adds the local test help center, sees it read into
 * SQLite, searches what the query node retrieves (with links), deletes it; an operator only reads.
 * Takes docs/screenshots/sources.png with TREEAGENT_UPDATE_SCREENSHOTS=1.
 */
const SCREENSHOTS =
  process.env.TREEAGENT_UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : `${mkdtempSync(join(tmpdir(), 'treeagent-screenshots-'))}/`;

describe('Sources page (Chromium)', () => {
  let browser: Browser;
  let server: RunningServer;
  let dir: string;
  let stores: SqliteStores;
  const site = new TestSite();

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await site.start();
    helpCenter(site, 4);
    dir = mkdtempSync(join(tmpdir(), 'treeagent-sources-page-'));
    stores = openSqlite(dir);
    server = await serve({
      agent: new TreeAgent({
        tree: helpTree,
        vectorStore: stores.vectorStore,
        embeddingCache: stores.embeddingCache,
      }),
      hostname: '127.0.0.1',
      port: 0,
      web: { directory: WEB_DIRECTORY },
      logger: memoryLogger(),
      operators: { directory: operatorDirectory(await testOperatorAccounts()) },
      sources: { store: stores.sourceStore, allowPrivateHosts: ['127.0.0.1'], scheduleIntervalMs: 0 },
    });
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close({ timeoutMs: 1000 });
    await stores?.close();
    await site.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  async function loggedIn(who: 'anna' | 'bruno'): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({
      viewport: { width: 1360, height: 900 },
      colorScheme: 'light',
    });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${server.url}/staff/sources`);
    await page.waitForSelector('#operator-login');
    await page.fill('input[name=login]', who);
    await page.fill('input[name=password]', OPERATOR_PASSWORDS[who]);
    await page.click('#operator-login button[type=submit]');
    await page.waitForSelector('#sources-page');
    return { page, errors };
  }

  it('an admin adds a website, sees it read (pages, chunks, the page that failed), searches it with links, and deletes it', async () => {
    const { page, errors } = await loggedIn('anna');
    await page.fill('#source-add input[name=location]', `${site.origin}/`);
    await page.fill('#source-add input[name=every]', '1440');
    await page.click('#source-add button[type=submit]');
    const row = page.locator('#sources-table .source-row');
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 20_000 }).toBe('ready');
    const [source] = await stores.sourceStore.listSources();
    expect(await row.locator('.source-pages').textContent()).toBe(String(source!.pages));
    expect(source!.pages).toBe(11);
    expect(await row.locator('.source-chunks').textContent()).toBe(String(source!.chunks));
    expect(await row.locator('.source-error').textContent()).toMatch(/\/broken answered 500/);
    expect(await row.textContent()).toContain('every 1440 min');

    await page.fill('#source-search input[name=message]', 'when is my refund paid to the card?');
    await page.click('#source-search button[type=submit]');
    const first = page.locator('#source-search .source-result').first();
    await first.waitFor();
    expect(await first.locator('a.source-result-title').getAttribute('href')).toBe(
      `${site.origin}/returns#refunds`,
    );
    expect(await first.locator('a.source-result-title').textContent()).toBe('Returns');
    await page.screenshot({ path: `${SCREENSHOTS}sources.png`, fullPage: true });

    page.on('dialog', (dialog) => void dialog.accept());
    await row.locator('.source-delete').click();
    await expect.poll(() => row.count()).toBe(0);
    expect(await stores.sourceStore.listSources()).toEqual([]);
    expect((await stores.vectorStore.ids('help:3')).length).toBe(0);
    expect(errors).toEqual([]);
  }, 60_000);

  it('an operator sees the sources and searches, but has no add, refresh or delete', async () => {
    const { page } = await loggedIn('bruno');
    await page.waitForSelector('body.is-ready');
    expect(await page.locator('#source-add').count()).toBe(0);
    expect(await page.locator('.source-delete').count()).toBe(0);
    expect(await page.locator('#source-search').count()).toBe(1);
  }, 60_000);
});
