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
import { WEB_DIRECTORY } from './web-directory.js';

/**
 * The repair booking of the bike shop (a form of @treeagent/components) in the real web app, in
 * Debian's Chromium: the debug panel's Form section shows the slots, what each message gave and by
 * which parser. Takes docs/screenshots/form-debug.png with TREEAGENT_UPDATE_SCREENSHOTS=1.
 */

const SCREENSHOTS =
  process.env.TREEAGENT_UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : `${mkdtempSync(join(tmpdir(), 'treeagent-screenshots-'))}/`;

describe('the form in the debug panel (Chromium)', () => {
  let browser: Browser;
  let server: RunningServer;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    // Tuesday 1 December 2026 in Rome: "domani" is Wednesday the 2nd.
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
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close({ timeoutMs: 1000 });
  }, 60_000);

  async function say(page: Page, text: string) {
    const turns = await page.locator('.turn').count();
    await page.locator('#message-input').fill(text);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`.turn:nth-child(${turns + 1}) .turn-meta`);
  }

  it('shows the slots with value, parser and source, the correction and the refused phone of the last message', async () => {
    const context = await browser.newContext({
      viewport: { width: 1360, height: 980 },
      colorScheme: 'light',
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(server.url);
    await page.waitForSelector('body.is-ready');

    await say(page, 'vorrei prenotare una riparazione per la mia mtb domani alle 10, il cambio non va');
    expect(await page.locator('.turn:nth-child(1) .msg--agent .content').textContent()).toContain(
      'A che numero ti possiamo chiamare?',
    );
    await say(page, 'anzi è una city bike, chiamatemi al 333 12');
    expect(await page.locator('.turn:nth-child(2) .msg--agent .content').textContent()).toContain(
      'Il numero non sembra valido',
    );

    await page.locator('.turn:nth-child(2) .turn-meta .inspect').click();
    const form = page.locator('#panel-debug [data-section="form"]');
    await form.waitFor();
    expect(await form.locator('[data-form="riparazione"] .status-badge').textContent()).toBe('collecting');
    const rows = await form
      .locator('.form-slots-table tbody tr')
      .evaluateAll((items) =>
        items.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)),
      );
    expect(rows).toEqual([
      ['bike', 'enum', 'city bike', 'enum', 'city bike'],
      ['problem', 'text', 'il cambio non va', 'text:keyword', 'il cambio non va'],
      ['date', 'date', 'mercoledì 2 dicembre 2026', 'date:relative', 'domani'],
      ['time', 'time', '10:00', 'time', 'alle 10'],
      ['phone', 'phone', '—', '—', '—'],
    ]);
    expect(await form.locator('.form-extracted').allTextContents()).toEqual([
      'bike = city bike by enum from city bike (correction)',
    ]);
    expect(await form.locator('.form-refused').allTextContents()).toEqual([
      'phone refused: invalid-phone (333 12)',
    ]);
    await form.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SCREENSHOTS}form-debug.png` });
    expect(errors).toEqual([]);
    await context.close();
  });
});
