import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteSessionStore } from '@treeagent/sqlite';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorDirectory } from './operators/operator-accounts.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { handoffAgent } from './test-support/handoff.js';
import { OPERATOR_PASSWORDS, testOperatorAccounts } from './test-support/operators.js';
import { seedConversations } from './test-support/staff-pages.js';
import { WEB_DIRECTORY } from './web-directory.js';

/**
 * The operator console before its first answers are in, in Debian's Chromium: the page shows what
 * it knows, not a guess. The queue's count is "…" until the queue is read (a count of 0 would say
 * nobody waits); an older answer that comes late does not replace a newer one; the server's
 * presence is applied when it comes, unless the operator chose one meanwhile. Each test holds one
 * request of the page (`page.route`) to open that moment.
 */
let browser: Browser;
let server: RunningServer;
let dir: string;
let sessionStore: SqliteSessionStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'treeagent-console-first-'));
  sessionStore = new SqliteSessionStore(join(dir, 'data.db'));
  server = await serve({
    hostname: '127.0.0.1',
    port: 0,
    logger: memoryLogger(),
    operators: { directory: operatorDirectory(await testOperatorAccounts()) },
    agent: handoffAgent({ sessionStore }),
    web: { directory: WEB_DIRECTORY },
  });
  // One conversation waiting for an operator.
  await seedConversations(server.url, [['hello', 'a human please']]);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close({ timeoutMs: 1000 });
  await sessionStore?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

async function englishPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/** A promise a held request waits on (`held`) until the test lets it answer (`answer()`). */
function heldAnswer(): { held: Promise<void>; answer: () => void } {
  let answer: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    answer = resolve;
  });
  return { held, answer };
}

/** Opens the console and logs in as Anna (an operator). */
async function logInToConsole(page: Page) {
  await page.goto(`${server.url}/staff/console`);
  await page.fill('#operator-login-name', 'anna');
  await page.fill('#operator-password', OPERATOR_PASSWORDS.anna);
  await page.locator('#operator-login button[type=submit]').click();
}

describe('the console while its first answers are on their way', () => {
  it('says "…" on the open tab, not a count of 0, until the first answer', async () => {
    const { context, page } = await englishPage();
    try {
      const { held, answer } = heldAnswer();
      await page.route('**/api/v1/operator/handoffs?status=open', async (route) => {
        await held;
        await route.continue();
      });
      await logInToConsole(page);
      await page.locator('#console-page .console-queue').waitFor();
      expect(await page.textContent('#queue-tab-open')).toBe('Queue (…)');
      // Nor "Nobody is waiting" before the answer says so.
      expect(await page.locator('#queue-empty').count()).toBe(0);
      answer();
      await page.locator('#queue-list button').first().waitFor();
      expect(await page.textContent('#queue-tab-open')).toBe('Queue (1)');
    } finally {
      await context.close();
    }
  });

  it('keeps the newest answer when an older one comes late', async () => {
    const { context, page } = await englishPage();
    try {
      const { held, answer } = heldAnswer();
      // The first read of the open queue answers late, with the queue as it was before the
      // conversation of beforeAll (empty); the reads after it pass.
      let first = true;
      await page.route('**/api/v1/operator/handoffs?status=open', async (route) => {
        if (!first) return route.continue();
        first = false;
        await held;
        await route.fulfill({ json: { handoffs: [], queues: [] } });
      });
      await logInToConsole(page);
      await page.locator('#console-page .console-queue').waitFor();
      // Read the open queue again (the tabs), while the first read is still on its way.
      await page.click('#queue-tab-closed');
      await page.click('#queue-tab-open');
      await page.locator('#queue-list button').first().waitFor();
      // The late answer reaches the page; give it time to be applied (or not).
      const late = page.waitForResponse('**/api/v1/operator/handoffs?status=open');
      answer();
      await late;
      await page.waitForTimeout(300);
      expect(await page.textContent('#queue-tab-open')).toBe('Queue (1)');
      expect(await page.locator('#queue-list button').count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it("applies the server's presence when it comes, unless the operator chose one meanwhile", async () => {
    for (const choose of [false, true]) {
      const { context, page } = await englishPage();
      try {
        const { held, answer } = heldAnswer();
        // The server says Anna is away, late.
        await page.route('**/api/v1/operator/routing/presence', async (route) => {
          if (route.request().method() !== 'GET') return route.continue();
          await held;
          await route.fulfill({
            json: {
              presence: [
                { operatorId: 'anna', name: 'Anna', teams: [], status: 'away', at: new Date().toISOString() },
              ],
              teams: [],
            },
          });
        });
        await logInToConsole(page);
        await page.locator('#presence-status').waitFor();
        if (choose) await page.selectOption('#presence-status', 'online');
        const late = page.waitForResponse('**/api/v1/operator/routing/presence');
        answer();
        await late;
        await page.waitForTimeout(300);
        expect(await page.inputValue('#presence-status')).toBe(choose ? 'online' : 'away');
      } finally {
        await context.close();
      }
    }
  });
  it('keeps the status the server has when a change of presence fails, and says why', async () => {
    const { context, page } = await englishPage();
    try {
      await page.route('**/api/v1/operator/routing/presence', async (route) => {
        if (route.request().method() !== 'PUT') return route.continue();
        await route.fulfill({
          status: 503,
          json: { error: { code: 'STORE_UNAVAILABLE', message: 'The store is down: try again.' } },
        });
      });
      // The server's presence read first, so that it cannot land after the change.
      const read = page.waitForResponse(
        (response) => response.url().endsWith('/routing/presence') && response.request().method() === 'GET',
      );
      await logInToConsole(page);
      await page.locator('#presence-status').waitFor();
      await read;
      await page.waitForTimeout(200);
      const before = await page.inputValue('#presence-status');
      const next = before === 'online' ? 'away' : 'online';
      await page.selectOption('#presence-status', next);
      // The selector goes back to what the server still has; the alert names the status and the reason.
      await page.locator('#presence-failure').waitFor();
      expect(await page.inputValue('#presence-status')).toBe(before);
      expect(await page.textContent('#presence-failure')).toBe(
        `Your status did not change to ${next === 'online' ? 'Online' : 'Away'}: The store is down: try again.`,
      );
      expect(await page.getAttribute('#presence-alerts', 'data-status')).toBe(before);
      // The next change that the server takes clears it.
      await page.unroute('**/api/v1/operator/routing/presence');
      await page.selectOption('#presence-status', next);
      await page.waitForTimeout(500);
      expect(await page.locator('#presence-failure').count()).toBe(0);
      expect(await page.inputValue('#presence-status')).toBe(next);
    } finally {
      await context.close();
    }
  });
});
