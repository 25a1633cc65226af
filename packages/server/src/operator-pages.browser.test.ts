import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorDirectory } from './operators/operator-accounts.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium, openPage } from './test-support/browser.js';
import { memoryLogger, testAgent } from './test-support/fixtures.js';
import { OPERATOR_PASSWORDS, testOperatorAccounts } from './test-support/operators.js';
import { WEB_DIRECTORY } from './web-directory.js';

/** The operator login gate and the audit log page in Chromium. */
describe('operator pages (Chromium)', () => {
  let browser: Browser;
  let server: RunningServer;

  beforeAll(async () => {
    server = await serve({
      agent: testAgent(),
      port: 0,
      web: { directory: WEB_DIRECTORY },
      logger: memoryLogger(),
      operators: { directory: operatorDirectory(await testOperatorAccounts()) },
    });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close({ timeoutMs: 1000 });
  });

  async function logIn(
    page: Page,
    login: keyof typeof OPERATOR_PASSWORDS,
    password = OPERATOR_PASSWORDS[login],
  ) {
    await page.locator('#operator-login-name').fill(login);
    await page.locator('#operator-password').fill(password);
    await page.locator('#operator-login button[type=submit]').click();
  }

  it('asks for a login, refuses a wrong password, keeps the audit log from operators, shows it to admins', async () => {
    const { page, context, errors } = await openPage(browser, `${server.url}/staff/audit`);
    try {
      await page.locator('#operator-login').waitFor();
      await logIn(page, 'bruno', 'wrong-password-1');
      expect(await page.locator('#operator-login-error').textContent()).toBe(
        'The login or the password is wrong.',
      );

      await logIn(page, 'bruno');
      await page.getByText('the audit log is for admins').waitFor();
      // The login lives in an HttpOnly cookie: the page's scripts cannot read it.
      expect(await page.evaluate('document.cookie')).toBe('');
      await page.locator('button', { hasText: 'Log out' }).click();

      await logIn(page, 'anna');
      await page.locator('#audit-page').waitFor();
      expect(await page.locator('#operator-name').textContent()).toBe('Anna Rossi');
      await page.locator('.audit-row').first().waitFor();
      const actions = await page.locator('.audit-row td:nth-child(3)').allTextContents();
      expect(actions.slice(0, 4)).toEqual([
        'operator.login',
        'operator.logout',
        'operator.login',
        'operator.login-failed',
      ]);
      await page.locator('#audit-filter-actorId').fill('anna');
      await page.locator('#audit-filter-actorId').press('Enter');
      await expect.poll(() => page.locator('.audit-row').count()).toBe(1);

      // After logging out, a reload asks for the login again.
      await page.locator('#operator-logout').click();
      await page.locator('#operator-login').waitFor();
      await page.reload();
      await page.locator('#operator-login').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
