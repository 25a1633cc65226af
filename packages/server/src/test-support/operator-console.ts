import type { Browser } from 'playwright-core';
import { openPage } from './browser.js';
import { OPERATOR_PASSWORDS } from './operators.js';

/** The console of the server at `url` in a page of its own, `login` logged in through the form and online. */
export async function openOperatorConsole(
  browser: Browser,
  url: string,
  login: keyof typeof OPERATOR_PASSWORDS,
  viewport?: { width: number; height: number },
): ReturnType<typeof openPage> {
  const opened = await openPage(browser, `${url}/staff/console`, viewport);
  await opened.page.locator('#operator-login-name').fill(login);
  await opened.page.locator('#operator-password').fill(OPERATOR_PASSWORDS[login]);
  await opened.page.locator('#operator-login button[type=submit]').click();
  await opened.page.locator('#presence-status').waitFor();
  await opened.page.locator('#presence-status').selectOption('online');
  return opened;
}
