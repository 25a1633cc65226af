import type { TreeDocument } from '@treeagent/core/document';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorDirectory } from './operators/operator-accounts.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium, openPage } from './test-support/browser.js';
import { memoryLogger, testAgent } from './test-support/fixtures.js';
import { memoryTreeEditor } from './test-support/memory-tree-editor.js';
import { OPERATOR_PASSWORDS, testOperatorAccounts } from './test-support/operators.js';
import { WEB_DIRECTORY } from './web-directory.js';

const TREE: TreeDocument = {
  format: 'treeagent-tree',
  version: 1,
  name: 'my-agent',
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, parent: 1, type: 'agent', isPrimary: true },
  ],
};

/** The tree editor of a server with operators, before anyone logged in (Chromium). */
describe('the editor before login', () => {
  let browser: Browser;
  let server: RunningServer;

  beforeAll(async () => {
    server = await serve({
      agent: testAgent(),
      port: 0,
      web: { directory: WEB_DIRECTORY },
      logger: memoryLogger(),
      operators: { directory: operatorDirectory(await testOperatorAccounts()) },
      editor: memoryTreeEditor(TREE),
    });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close({ timeoutMs: 1000 });
  });

  it('shows the staff login form, not the API’s refusal, refuses an operator, and opens for an admin', async () => {
    const { page, context, errors } = await openPage(browser, `${server.url}/staff/editor`);
    try {
      await page.locator('#operator-login').waitFor();
      expect(await page.locator('#editor-error').count()).toBe(0);
      expect(await page.locator('#operator-login').textContent()).toContain(
        'Log in to open the tree editor.',
      );

      await page.locator('#operator-login-name').fill('bruno');
      await page.locator('#operator-password').fill(OPERATOR_PASSWORDS.bruno);
      await page.locator('#operator-login button[type=submit]').click();
      await page.getByText('the tree editor is for admins').waitFor();
      await page.locator('button', { hasText: 'Log out' }).click();

      await page.locator('#operator-login-name').fill('anna');
      await page.locator('#operator-password').fill(OPERATOR_PASSWORDS.anna);
      await page.locator('#operator-login button[type=submit]').click();
      await page.locator('#editor-page .editor-file').waitFor();
      expect(errors.filter((error) => !error.includes('401'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
