import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorDirectory } from './operators/operator-accounts.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { handoffAgent } from './test-support/handoff.js';
import { overflowing, touchContext } from './test-support/layout.js';
import { OPERATOR_PASSWORDS, testOperatorAccounts } from './test-support/operators.js';
import { seedConversations } from './test-support/staff-pages.js';
import { WEB_DIRECTORY } from './web-directory.js';

const SCREENSHOTS =
  process.env.TREEAGENT_UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : `${mkdtempSync(join(tmpdir(), 'treeagent-screenshots-'))}/`;

/** Whether `locator` is drawn whole inside the window (not hidden, not scrolled away, not cut). */
async function wholeOnScreen(page: Page, locator: Locator): Promise<string | null> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  if (!box || box.width === 0) return 'not shown';
  if (
    box.y < 0 ||
    box.y + box.height > viewport.height + 0.5 ||
    box.x < 0 ||
    box.x + box.width > viewport.width + 0.5
  )
    return `outside the ${viewport.width}×${viewport.height} window: ${JSON.stringify(box)}`;
  return null;
}

/**
 * The operator console on a 390×844 phone (touch) in Chromium: the queue fits the width; tapping a
 * conversation shows it alone, with a button back to the queue; with the keyboard up (the window
 * reduced to 390×420) the reply box is still on screen, and a reply sent from it reaches the
 * transcript; back to the queue, the queue is there again. Screenshots in docs/screenshots/console-phone-*.png.
 */
describe('the console on a phone (Chromium, 390×844, touch)', () => {
  let browser: Browser;
  let server: RunningServer;

  beforeAll(async () => {
    server = await serve({
      agent: handoffAgent(),
      hostname: '127.0.0.1',
      port: 0,
      web: { directory: WEB_DIRECTORY },
      logger: memoryLogger(),
      operators: { directory: operatorDirectory(await testOperatorAccounts()) },
      handoff: { streamPollMs: 500 },
    });
    // Two people waiting, one who wrote a few messages first (a transcript taller than the screen).
    await seedConversations(server.url, [
      ['hello', 'tell me a story', 'and another one', 'a human please'],
      ['I want a human'],
    ]);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close({ timeoutMs: 1000 });
  });

  it('queue, conversation and reply box are usable, with the keyboard up, and the way back to the queue', async () => {
    const context = await touchContext(browser, { width: 390, height: 844 });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    try {
      await page.goto(`${server.url}/staff/console`);
      await page.fill('#operator-login-name', 'bruno');
      await page.fill('#operator-password', OPERATOR_PASSWORDS.bruno);
      await page.locator('#operator-login button[type=submit]').tap();
      const items = page.locator('#queue-list .queue-item');
      await expect.poll(() => items.count()).toBe(2);
      expect(await overflowing(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOTS}console-phone-queue.png` });

      // The conversation alone on the screen, with the way back.
      await page.locator('#queue-list .queue-item', { hasText: 'human please' }).tap();
      await page.locator('#reply-form').waitFor();
      expect(await page.locator('#queue-list').isVisible()).toBe(false);
      expect(await wholeOnScreen(page, page.locator('#back-to-queue'))).toBeNull();
      await page.locator('#claim').tap();
      await expect.poll(() => page.locator('#reply-send').isEnabled()).toBe(true);
      expect(await overflowing(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOTS}console-phone-conversation.png` });

      // The keyboard takes half the screen: the reply box stays in the window.
      await page.setViewportSize({ width: 390, height: 420 });
      expect(await wholeOnScreen(page, page.locator('#reply-input'))).toBeNull();
      expect(await wholeOnScreen(page, page.locator('#reply-send'))).toBeNull();
      await page.locator('#reply-input').tap();
      await page.locator('#reply-input').fill('Hello, I am Bruno: how can I help?');
      expect(await wholeOnScreen(page, page.locator('#reply-send'))).toBeNull();
      await page.screenshot({ path: `${SCREENSHOTS}console-phone-reply.png` });
      await page.locator('#reply-send').tap();
      await expect
        .poll(() => page.locator('#console-session .transcript').textContent())
        .toContain('Hello, I am Bruno: how can I help?');
      expect(await overflowing(page)).toEqual([]);

      // Back to the queue.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.locator('#back-to-queue').tap();
      await page.locator('#queue-list').waitFor();
      expect(await wholeOnScreen(page, items.first())).toBeNull();
      expect(await page.locator('#reply-form').count()).toBe(0);
      expect(await overflowing(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
