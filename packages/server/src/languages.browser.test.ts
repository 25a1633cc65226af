import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteSessionStore } from '@treeagent/sqlite';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorDirectory } from './operators/operator-accounts.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { handoffAgent } from './test-support/handoff.js';
import { overflowing, topBarProblems } from './test-support/layout.js';
import { memoryTreeEditor } from './test-support/memory-tree-editor.js';
import { OPERATOR_PASSWORDS, testOperatorAccounts } from './test-support/operators.js';
import { seedConversations } from './test-support/staff-pages.js';
import { WEB_DIRECTORY } from './web-directory.js';

/**
 * The interface in the user's language (docs/languages.md), in Debian's Chromium: the customer page
 * and the staff pages in Italian and in English from the browser's languages, `?lang=es`, the
 * deployment's locale over the browser, 24-hour times in Italian, the server's limit message in the
 * page's language. With TREEAGENT_UPDATE_SCREENSHOTS=1 it writes docs/screenshots/languages-*.png
 * (the customer page in both languages, every staff page in Italian at 1280×800 and 390×844).
 */
const SCREENSHOTS =
  process.env.TREEAGENT_UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : `${mkdtempSync(join(tmpdir(), 'treeagent-screenshots-'))}/`;

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const STAFF_PAGES = [
  { name: 'tree', path: '/staff/tree', shown: '#tree-page' },
  { name: 'editor', path: '/staff/editor', shown: '#editor-page .editor-file' },
  { name: 'console', path: '/staff/console', shown: '#console-page .console-queue' },
  { name: 'analytics', path: '/staff/analytics', shown: '#analytics-page .report-card' },
  { name: 'review', path: '/staff/review', shown: '#review-page' },
  { name: 'sources', path: '/staff/sources', shown: '#sources-page' },
  { name: 'audit', path: '/staff/audit', shown: '#audit-page .audit-row' },
] as const;

let browser: Browser;
let server: RunningServer;
let italianServer: RunningServer;
let dir: string;
let sessionStore: SqliteSessionStore;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  dir = mkdtempSync(join(tmpdir(), 'treeagent-languages-'));
  sessionStore = new SqliteSessionStore(join(dir, 'data.db'));
  const common = {
    hostname: '127.0.0.1',
    port: 0,
    logger: memoryLogger(),
    operators: { directory: operatorDirectory(await testOperatorAccounts()) },
  };
  server = await serve({
    ...common,
    agent: handoffAgent({ sessionStore }),
    web: { directory: WEB_DIRECTORY },
    analytics: { treeFile: join(dir, 'tree.ts'), utterancesFile: join(dir, 'utterances.tsv') },
    editor: memoryTreeEditor({
      format: 'treeagent-tree',
      version: 1,
      name: 'test-desk',
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, parent: 1, type: 'agent', isPrimary: true },
      ],
    }),
    messageLimit: { perSession: { windowMs: 60_000, max: 3 } },
  });
  // The deployment says Italian: the pages speak it whatever the browser asks.
  italianServer = await serve({
    ...common,
    agent: handoffAgent(),
    web: { directory: WEB_DIRECTORY },
    locale: 'it',
  });
  // A conversation for the review and analytics pages, one waiting for an operator in the console.
  await seedConversations(server.url, [['hello', 'a human please']]);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close({ timeoutMs: 1000 });
  await italianServer?.close({ timeoutMs: 1000 });
  await sessionStore?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** A page in a browser whose languages are `locale` (navigator.languages and Accept-Language). */
async function pageIn(locale: string, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport,
    locale,
    colorScheme: 'light',
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

async function send(page: Page, text: string) {
  await page.fill('#message-input', text);
  await page.press('#message-input', 'Enter');
}

describe('the customer page in the browser’s language', () => {
  it('speaks Italian to an Italian browser, with 24-hour times and the server’s limit in Italian', async () => {
    const { context, page } = await pageIn('it-IT');
    try {
      await page.goto(server.url);
      await page.waitForSelector('body.is-ready');
      expect(await page.getAttribute('html', 'lang')).toBe('it-IT');
      expect(await page.getAttribute('#message-input', 'placeholder')).toBe('Scrivi un messaggio…');
      expect(await page.textContent('#new-chat')).toBe('Nuova conversazione');
      expect(await page.textContent('#empty-title')).toBe('Parla con test-desk');
      await send(page, 'hello');
      const time = page.locator('.turn-meta').first();
      await time.waitFor();
      expect(await time.textContent()).toMatch(/^\d{2}:\d{2}$/);
      expect(await overflowing(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOTS}languages-chat-it.png` });
      // Over the session's limit (3 a minute): the server's refusal, in the page's language.
      await send(page, 'hello');
      await page.locator('.turn-meta').nth(1).waitFor();
      await send(page, 'hello');
      await page.locator('.turn-meta').nth(2).waitFor();
      await send(page, 'hello');
      const refusal = page.locator('.notice--error .error-message');
      await refusal.waitFor();
      expect(await refusal.textContent()).toMatch(
        /^Hai inviato troppi messaggi: al massimo 3 ogni 60 secondi\./,
      );
      expect(await page.textContent('.notice--error .notice-hint')).toBe(
        'Troppi messaggi: attendi un momento, poi riprova.',
      );
    } finally {
      await context.close();
    }
  });

  it('speaks English to an English browser, with 12-hour times in US English', async () => {
    const { context, page } = await pageIn('en-US');
    try {
      await page.goto(server.url);
      await page.waitForSelector('body.is-ready');
      expect(await page.getAttribute('#message-input', 'placeholder')).toBe('Write a message…');
      expect(await page.textContent('#new-chat')).toBe('New conversation');
      await send(page, 'hello');
      const time = page.locator('.turn-meta').first();
      await time.waitFor();
      expect(await time.textContent()).toMatch(/^\d{1,2}:\d{2}\s(AM|PM)$/);
      await page.screenshot({ path: `${SCREENSHOTS}languages-chat-en.png` });
    } finally {
      await context.close();
    }
  });

  it('takes ?lang=es over the browser, and the deployment’s locale over both', async () => {
    const { context, page } = await pageIn('en-US', PHONE);
    try {
      await page.goto(`${server.url}/?lang=es`);
      await page.waitForSelector('body.is-ready');
      expect(await page.getAttribute('#message-input', 'placeholder')).toBe('Escribe un mensaje…');
      expect(await page.textContent('#new-chat')).toBe('Nueva conversación');
      await page.goto(`${italianServer.url}/?lang=es`);
      await page.waitForSelector('body.is-ready');
      expect(await page.getAttribute('#message-input', 'placeholder')).toBe('Scrivi un messaggio…');
      expect(await overflowing(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOTS}languages-chat-it-phone.png` });
    } finally {
      await context.close();
    }
  });
});

describe.each([
  { locale: 'it-IT', login: 'Accedi', pick: 'Scegli una sessione nella coda.', queue: 'Coda (1)' },
  { locale: 'en-US', login: 'Log in', pick: 'Pick a session in the queue.', queue: 'Queue (1)' },
])('the staff pages in $locale', ({ locale, login, pick, queue }) => {
  it.each([DESKTOP, PHONE])(
    'log in, then every page at $width×$height: translated, nothing overflows',
    async (viewport) => {
      const { context, page } = await pageIn(locale, viewport);
      const italian = locale === 'it-IT';
      const size = viewport === DESKTOP ? '1280' : '390';
      try {
        await page.goto(`${server.url}/staff/console`);
        await page.locator('#operator-login').waitFor();
        expect(await page.textContent('#operator-login button[type=submit]')).toBe(login);
        await page.fill('#operator-login-name', 'anna');
        await page.fill('#operator-password', OPERATOR_PASSWORDS.anna);
        await page.locator('#operator-login button[type=submit]').click();
        await page.locator('#console-page .console-queue').waitFor();
        // The count once the queue's first answer is in (before it, the tab says "…", not 0).
        await page.locator('#queue-list button').first().waitFor();
        expect(await page.textContent('#queue-tab-open')).toBe(queue);
        if (viewport === DESKTOP) expect(await page.textContent('.console-placeholder')).toBe(pick);
        await page.locator('#queue-list button').first().click();
        await page.locator('#transcript').waitFor();
        // The handoff row and the transcript's times in the page's language (24 hours in Italian).
        const row = await page.locator('.t-entry--system').first().textContent();
        expect(row).toBe(
          italian
            ? 'La conversazione è passata a una persona: asked for a person'
            : 'The conversation was handed to a person: asked for a person',
        );
        const meta = await page.locator('.t-entry--user .t-who .muted').first().textContent();
        expect(meta).toMatch(
          italian ? /· turno 1 · \d{2}:\d{2}:\d{2}$/ : /· turn 1 · \d{1,2}:\d{2}:\d{2}\s(AM|PM)$/,
        );
        for (const staff of STAFF_PAGES) {
          await page.goto(`${server.url}${staff.path}`);
          await page.waitForSelector('body.is-ready');
          await page.locator(staff.shown).first().waitFor();
          expect(await overflowing(page), staff.path).toEqual([]);
          expect(await topBarProblems(page), staff.path).toEqual([]);
          const nav = await page.locator('.page-nav .page-link span').allTextContents();
          expect(nav[1], staff.path).toBe(italian ? 'Albero' : 'Tree');
          if (italian) await page.screenshot({ path: `${SCREENSHOTS}languages-${staff.name}-${size}.png` });
        }
      } finally {
        await context.close();
      }
    },
  );
});

describe("the staff's errors in the page's language", () => {
  it("an Italian page says what the API's refusal means in Italian, then the server's words", async () => {
    const { context, page } = await pageIn('it-IT');
    try {
      await page.goto(`${server.url}/staff/review`);
      await page.fill('#operator-login-name', 'anna');
      await page.fill('#operator-password', OPERATOR_PASSWORDS.anna);
      await page.locator('#operator-login button[type=submit]').click();
      await page.locator('#review-page').waitFor();
      // The server refuses the next search (as it does a role that may not read the review).
      await page.route('**/api/v1/analytics/conversations**', (route) =>
        route.fulfill({
          status: 403,
          json: { error: { code: 'FORBIDDEN', message: 'Only admins read the review.' } },
        }),
      );
      await page.reload();
      await page.locator('#review-page .notice--error').waitFor();
      expect(await page.textContent('#review-page .notice--error .error-message')).toBe(
        'Il tuo ruolo non lo consente: chiedi a un amministratore. (Only admins read the review.)',
      );
    } finally {
      await context.close();
    }
  });
});
