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
import {
  overflowing,
  SMALL_SCREENS,
  topBarProblems,
  touchContext,
  unreachable,
} from './test-support/layout.js';
import { memoryTreeEditor } from './test-support/memory-tree-editor.js';
import { OPERATOR_PASSWORDS, testOperatorAccounts } from './test-support/operators.js';
import { EDITED_TREE, seedConversations } from './test-support/staff-pages.js';
import { webhookReceiver } from './test-support/webhook-receiver.js';
import { WEB_DIRECTORY } from './web-directory.js';

/**
 * Every page of the web app (the chat's conversation has its own test, chat-phone.browser.test.ts) on a 390×844
 * phone and a 768×1024 tablet, with touch, in Debian's Chromium, logged in as an admin: the page
 * never scrolls sideways, the top bar shows every page link and action whole (no strip to scroll),
 * and every control of the page can be reached and is not covered by something else.
 */

/** Each page and what shows it is drawn (beyond `body.is-ready`). */
const PAGES = [
  { path: '/', shown: '#message-input' },
  { path: '/staff/tree', shown: '#tree-page' },
  { path: '/staff/editor', shown: '#editor-page .editor-file' },
  { path: '/staff/console', shown: '#console-page .console-queue' },
  { path: '/staff/analytics', shown: '#analytics-page .report-card' },
  { path: '/staff/review', shown: '#review-page' },
  { path: '/staff/audit', shown: '#audit-page .audit-row' },
] as const;

const NONE = { overflow: [], topBar: [], controls: [] };

/** All three checks at once, so a failure shows every problem of the page. */
async function layoutProblems(page: Page) {
  return {
    overflow: await overflowing(page),
    topBar: await topBarProblems(page),
    controls: await unreachable(page),
  };
}

let browser: Browser;
let server: RunningServer;
let dir: string;
let sessionStore: SqliteSessionStore;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'treeagent-small-screens-'));
  sessionStore = new SqliteSessionStore(join(dir, 'data.db'));
  // The helpdesk refuses the first handoff for good: a dead letter for the console's admin section.
  receiver = await webhookReceiver((index) => (index === 0 ? 400 : 204));
  server = await serve({
    agent: handoffAgent({ sessionStore }),
    hostname: '127.0.0.1',
    port: 0,
    web: { directory: WEB_DIRECTORY },
    logger: memoryLogger(),
    operators: { directory: operatorDirectory(await testOperatorAccounts()) },
    analytics: { treeFile: join(dir, 'tree.ts'), utterancesFile: join(dir, 'utterances.tsv') },
    editor: memoryTreeEditor(EDITED_TREE),
    handoff: {
      webhook: { url: receiver.url, secret: 'a-shared-webhook-secret', retryDelayMs: 10, pollMs: 50 },
    },
  });
  // Conversations for the analytics, one waiting for an operator in the console's queue.
  await seedConversations(server.url, [
    ['hello', 'tell me a story'],
    ['hello', 'a human please'],
    ['what is this?'],
  ]);
  for (let waited = 0; receiver.received.length === 0 && waited < 10_000; waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close({ timeoutMs: 1000 });
  await receiver?.close();
  await sessionStore?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe.each(SMALL_SCREENS)(
  'the pages on a $width×$height $device (Chromium, touch)',
  ({ width, height, device }) => {
    let context: BrowserContext;
    let page: Page;
    const errors: string[] = [];

    beforeAll(async () => {
      context = await touchContext(browser, { width, height });
      page = await context.newPage();
      page.setDefaultTimeout(15_000);
      page.on('pageerror', (error) => errors.push(String(error)));
      // The login form is a page too: it fits before anyone has logged in.
      await page.goto(`${server.url}/staff/console`);
      await page.locator('#operator-login').waitFor();
      expect(await overflowing(page)).toEqual([]);
      expect(await unreachable(page)).toEqual([]);
      await page.fill('#operator-login-name', 'anna');
      await page.fill('#operator-password', OPERATOR_PASSWORDS.anna);
      await page.locator('#operator-login button[type=submit]').tap();
      await page.locator('#console-page').waitFor();
    }, 60_000);

    afterAll(async () => {
      await context?.close();
    });

    it.each(PAGES)(
      '$path: no sideways scroll, the whole top bar on screen, every control reachable',
      async ({ path, shown }) => {
        await page.goto(`${server.url}${path}`);
        await page.waitForSelector('body.is-ready');
        await page.locator(shown).first().waitFor();
        expect(await layoutProblems(page)).toEqual(NONE);
        expect(errors).toEqual([]);
      },
    );

    it('/staff/console: an admin sees the webhook event the helpdesk refused, and Retry delivers it', async () => {
      await page.goto(`${server.url}/staff/console`);
      const section = page.locator('#webhook-dead-letters');
      await section.waitFor();
      expect(await layoutProblems(page)).toEqual(NONE);
      // Retried on the phone (the first width): the tablet shows the section emptied.
      if (device === 'tablet') {
        expect(await page.locator('#webhook-counts').textContent()).toBe('0 pending · 0 given up');
        return;
      }
      expect(await section.locator('.dead-letter').first().textContent()).toMatch(
        /handoff\.started.*1 attempt, last: HTTP 400/,
      );
      await section.getByRole('button', { name: 'Retry' }).tap();
      await expect.poll(() => receiver.accepted().length).toBe(1);
      await section.getByRole('button', { name: 'Refresh' }).tap();
      await expect.poll(() => page.locator('#webhook-counts').textContent()).toBe('0 pending · 0 given up');
      expect(await section.locator('.dead-letter').count()).toBe(0);
    });

    it('/staff/review: an opened conversation takes the width of the screen, not a thin column', async () => {
      await page.goto(`${server.url}/staff/review`);
      await page.locator('.conversation-item').first().tap();
      const transcript = page.locator('#transcript');
      await transcript.waitFor();
      const box = await transcript.boundingBox();
      // Beside the list at 390 px, the conversation was a column about 60 px wide.
      expect(box?.width ?? 0).toBeGreaterThan(Math.min(width, 768) * 0.8 - 48);
      expect(await layoutProblems(page)).toEqual(NONE);
    });

    it('/staff/console: a waiting session opens with its transcript and reply box inside the screen', async () => {
      await page.goto(`${server.url}/staff/console`);
      await page.locator('#queue-list button, #queue-list a').first().tap();
      await page.locator('#reply-form').waitFor();
      expect(await layoutProblems(page)).toEqual(NONE);
    });
  },
);
