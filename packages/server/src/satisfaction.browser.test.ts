import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorDirectory } from './operators/operator-accounts.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium, openPage } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { handoffAgent } from './test-support/handoff.js';
import { loginOperator, OPERATOR_PASSWORDS, testOperatorAccounts } from './test-support/operators.js';
import { WEB_DIRECTORY } from './web-directory.js';

const SCREENSHOTS =
  process.env.TREEAGENT_UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : `${mkdtempSync(join(tmpdir(), 'treeagent-screenshots-'))}/`;

/**
 * CSAT in Chromium: a user asks for a person on the chat page; when the operator hands the
 * conversation back, the page asks for a 1–5 rating (a radio group) and a comment; the rating then
 * shows in the analytics page, by operator, team and tree version.
 */
describe('satisfaction from the chat page into analytics (Chromium)', () => {
  let browser: Browser;
  let server: RunningServer;

  beforeAll(async () => {
    server = await serve({
      agent: handoffAgent(),
      port: 0,
      web: { directory: WEB_DIRECTORY },
      logger: memoryLogger(),
      operators: { directory: operatorDirectory(await testOperatorAccounts()) },
      handoff: { streamPollMs: 500 },
    });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close({ timeoutMs: 1000 });
  });

  it('the user rates 4 after the hand back; analytics shows it for Bruno, support and the tree version', async () => {
    const user = await openPage(browser, `${server.url}/`);
    const staff = await openPage(browser, `${server.url}/staff/analytics`, { width: 1280, height: 1400 });
    try {
      const page = user.page;
      await page.locator('#message-input').fill('I want a human');
      await page.keyboard.press('Enter');
      await page.locator('#handoff-status').waitFor();

      // Bruno takes the conversation and hands it back.
      const token = await loginOperator(server.app, 'bruno');
      const headers = { 'X-Operator-Token': token, 'Content-Type': 'application/json' };
      const queue = (await (
        await fetch(`${server.url}/api/v1/operator/handoffs?status=open`, { headers })
      ).json()) as {
        handoffs: { sessionId: string }[];
      };
      const base = `${server.url}/api/v1/operator/handoffs/${queue.handoffs[0]!.sessionId}`;
      expect((await fetch(`${base}/claim`, { method: 'POST', headers, body: '{}' })).status).toBe(200);
      expect((await fetch(`${base}/hand-back`, { method: 'POST', headers, body: '{}' })).status).toBe(200);

      // The page asks; sending without a choice says what is missing.
      const form = page.locator('#satisfaction');
      await form.waitFor();
      await page.locator('#satisfaction-send').click();
      await expect
        .poll(() => form.locator('[role=alert]').textContent())
        .toBe('Choose a rating from 1 to 5 first.');
      const radios = page.getByRole('radio');
      expect(await radios.count()).toBe(5);
      await page.getByRole('radio', { name: '4 Satisfied' }).check();
      await page.locator('#satisfaction-comment').fill('Quick and kind');
      await page.screenshot({ path: `${SCREENSHOTS}chat-satisfaction.png` });
      await page.locator('#satisfaction-send').click();
      await page.locator('#satisfaction-thanks').waitFor();

      // The analytics page shows it.
      const analytics = staff.page;
      await analytics.locator('#operator-login-name').fill('bruno');
      await analytics.locator('#operator-password').fill(OPERATOR_PASSWORDS.bruno);
      await analytics.locator('#operator-login button[type=submit]').click();
      await analytics.locator('#satisfaction-report').waitFor();
      expect(await analytics.locator('#satisfaction-overall').textContent()).toBe(
        'Average 4.0 of 5 from 1 rating.',
      );
      const row = (id: string) =>
        analytics.locator(`#${id} tbody tr`).first().locator('td').allTextContents();
      expect(await row('satisfaction-by-operator')).toEqual(['Bruno Bianchi', '4.0', '1']);
      expect(await row('satisfaction-by-team')).toEqual(['support', '4.0', '1']);
      expect((await row('satisfaction-by-version')).slice(1)).toEqual(['4.0', '1']);
      await analytics
        .locator('#satisfaction-report')
        .screenshot({ path: `${SCREENSHOTS}analytics-satisfaction.png` });
      // The section follows the page's filter: days without ratings have none.
      await analytics.fill('#analytics-filter [name=from]', '2020-01-01');
      await analytics.fill('#analytics-filter [name=to]', '2020-01-31');
      await analytics.locator('#analytics-filter button[type=submit]').click();
      await expect
        .poll(() => analytics.locator('#satisfaction-overall').textContent())
        .toBe('No ratings in these days.');
      expect(user.errors).toEqual([]);
    } finally {
      await user.context.close();
      await staff.context.close();
    }
  });
});
