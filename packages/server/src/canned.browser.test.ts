import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineTree, type NodeDefinition, TreeAgent } from '@treeagent/core';
import { ExactEmbedder, ScriptedLanguageModel } from '@treeagent/core/test';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OperatorAccount, operatorDirectory } from './operators/operator-accounts.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium, openPage } from './test-support/browser.js';
import { memoryLogger, VECTORS } from './test-support/fixtures.js';
import { handoffNodes, RETURN_OPTION } from './test-support/handoff.js';
import { loginOperator, OPERATOR_PASSWORDS, testOperatorAccounts } from './test-support/operators.js';
import { WEB_DIRECTORY } from './web-directory.js';

const SCREENSHOTS =
  process.env.TREEAGENT_UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : `${mkdtempSync(join(tmpdir(), 'treeagent-screenshots-'))}/`;

/** The handoff shop, whose root also keeps the user's name and order number in the state. */
function shopAgent(): TreeAgent {
  const [root, ...rest] = handoffNodes() as [Extract<NodeDefinition, { type: 'root' }>, ...NodeDefinition[]];
  return new TreeAgent({
    tree: defineTree({
      name: 'test-desk',
      nodes: [
        {
          ...root,
          beforeRun: (self, context, special, links) => {
            context.sessionState.set('name', 'Ada');
            context.sessionState.set('order', 'A-17');
            return root.beforeRun?.(self, context, special, links);
          },
        },
        ...rest,
      ],
    }),
    // Mocks (labelled): an exact embedder and a scripted model.
    embedder: new ExactEmbedder({ vectors: { ...VECTORS, [RETURN_OPTION]: VECTORS.hello! } }),
    models: new ScriptedLanguageModel({ answers: 'Once upon a time, a bike.' }),
  });
}

/**
 * Canned responses in Chromium: the admin adds one in the console's editor; in the reply box of a
 * support conversation "/re" offers it and another, the keyboard picks it, and it is inserted with
 * the user's name and order number from the session's state, then sent to the user.
 */
describe('canned responses in the console (Chromium)', () => {
  let browser: Browser;
  let server: RunningServer;

  beforeAll(async () => {
    const accounts: OperatorAccount[] = (await testOperatorAccounts()).map((account) =>
      account.id === 'bruno' ? { ...account, teams: ['support'] } : account,
    );
    server = await serve({
      agent: shopAgent(),
      port: 0,
      web: { directory: WEB_DIRECTORY },
      logger: memoryLogger(),
      operators: { directory: operatorDirectory(accounts) },
      handoff: { streamPollMs: 500 },
    });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close({ timeoutMs: 1000 });
  });

  it('an admin adds a canned response; "/re" + arrows + Enter inserts it filled from the session', async () => {
    const anna = await openPage(browser, `${server.url}/staff/console`);
    try {
      const page = anna.page;
      await page.locator('#operator-login-name').fill('anna');
      await page.locator('#operator-password').fill(OPERATOR_PASSWORDS.anna);
      await page.locator('#operator-login button[type=submit]').click();

      // The admin's editor: one response for support, with both kinds of variable.
      await page.locator('#canned-admin > button').click();
      await page.locator('#canned-shortcut').fill('/refund');
      await page.locator('#canned-team').fill('support');
      await page
        .locator('#canned-text')
        .fill('Hello {{name}}, the refund of order {{state.order}} is on its way.');
      await page.locator('#canned-save').click();
      await expect
        .poll(() => page.locator('.canned-admin-list strong').allTextContents())
        .toEqual(['/refund']);
      // A second one, for every team, through the API.
      const token = await loginOperator(server.app, 'anna');
      const added = await fetch(`${server.url}/api/v1/operator/canned`, {
        method: 'POST',
        headers: { 'X-Operator-Token': token, 'Content-Type': 'application/json' },
        body: JSON.stringify({ shortcut: 'resolved', team: null, text: 'Glad it is resolved, {{name}}.' }),
      });
      expect(added.status).toBe(201);
      await page.locator('#canned-admin > button').click();

      // A user asks for a person; the admin claims the conversation in the console.
      const created = (await (await fetch(`${server.url}/api/v1/sessions`, { method: 'POST' })).json()) as {
        sessionId: string;
        token: string;
      };
      const userHeaders = { 'Content-Type': 'application/json', 'X-Session-Token': created.token };
      const said = await fetch(`${server.url}/api/v1/sessions/${created.sessionId}/messages`, {
        method: 'POST',
        headers: userHeaders,
        body: JSON.stringify({ message: 'I want a human' }),
      });
      expect(said.status).toBe(200);
      await page.locator('.queue-item').first().click();
      await page.locator('#claim').click();
      await expect.poll(() => page.locator('#session-holder').textContent()).toBe('Claimed by you');

      const input = page.locator('#reply-input');
      await input.click();
      await input.pressSequentially('/re');
      const options = page.locator('#canned-suggestions [role=option]');
      await expect.poll(() => options.count()).toBe(2);
      expect(await options.locator('strong').allTextContents()).toEqual(['/refund', '/resolved']);
      // The list can re-render once more as the session's canned responses arrive (which resets the
      // selection): press ArrowDown until the second is selected.
      const selected = page.locator('[role=option][aria-selected=true] strong');
      await expect
        .poll(async () => {
          const now = await selected.textContent();
          if (now !== '/resolved') await page.keyboard.press('ArrowDown');
          return now;
        })
        .toBe('/resolved');
      await page.keyboard.press('ArrowUp');
      await expect
        .poll(() => input.getAttribute('aria-activedescendant'))
        .toBe(await options.first().getAttribute('id'));
      await page.screenshot({ path: `${SCREENSHOTS}console-canned.png` });
      await page.keyboard.press('Enter');
      const filled = 'Hello Ada, the refund of order A-17 is on its way.';
      await expect.poll(() => input.inputValue()).toBe(filled);
      expect(await options.count()).toBe(0);

      // Enter again sends it: the user reads the filled text.
      await page.keyboard.press('Enter');
      await expect
        .poll(async () => {
          const response = await fetch(`${server.url}/api/v1/sessions/${created.sessionId}/history`, {
            headers: userHeaders,
          });
          return JSON.stringify(await response.json());
        })
        .toContain(filled);
      expect(anna.errors).toEqual([]);
    } finally {
      await anna.context.close();
    }
  });
});
