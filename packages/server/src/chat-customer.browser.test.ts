import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorDirectory } from './operators/operator-accounts.js';
import { type RunningServer, serve } from './serve.js';
import { axeViolations } from './test-support/axe.js';
import { launchChromium, openPage } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { handoffAgent, RETURN_OPTION } from './test-support/handoff.js';
import { overflowing, type PageElement, topBarProblems, touchContext } from './test-support/layout.js';
import { loginOperator, testOperatorAccounts } from './test-support/operators.js';
import { WEB_DIRECTORY } from './web-directory.js';

/**
 * The customer's chat page (`treeagent serve`: no staff links, ids, timings or debug) apart from the
 * staff's pages (under `/staff/`, behind their login), and what a walk through the chat found: the
 * developer's header at 1280×800, the handoff's texts, the operator's reply above the handoff bar on
 * a phone, the operator's options styled as options, one "Back to the assistant". In Debian's
 * Chromium; the operator acts through the API (mocks, labelled: the test tree's exact embedder and
 * scripted model).
 */

async function say(page: Page, text: string): Promise<void> {
  const turns = await page.locator('.turn').count();
  await page.locator('#message-input').fill(text);
  await page.keyboard.press('Enter');
  await page.locator('.turn').nth(turns).locator('.turn-meta').waitFor();
}

/** The element's bottom is inside the log's visible part and above the handoff bar. */
async function aboveTheBar(page: Page, element: Locator): Promise<boolean> {
  const shown = (await element.boundingBox())!;
  const bar = (await page.locator('#handoff-bar').boundingBox())!;
  const log = (await page.locator('#log').boundingBox())!;
  const bottom = shown.y + shown.height;
  return bottom <= bar.y + 1 && bottom <= log.y + log.height + 1 && bottom > log.y;
}

describe('the customer chat page, the staff pages, the handoff in the chat (Chromium)', () => {
  let browser: Browser;
  let customer: RunningServer;
  let developer: RunningServer;

  beforeAll(async () => {
    const operators = { directory: operatorDirectory(await testOperatorAccounts()) };
    const common = { hostname: '127.0.0.1', port: 0, web: { directory: WEB_DIRECTORY }, operators };
    customer = await serve({ agent: handoffAgent(), logger: memoryLogger(), ...common });
    developer = await serve({ agent: handoffAgent(), logger: memoryLogger(), debug: true, ...common });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await customer?.close({ timeoutMs: 1000 });
    await developer?.close({ timeoutMs: 1000 });
  });

  /** The session the page holds (what a customer must never be shown). */
  async function sessionOf(page: Page): Promise<string> {
    const stored = await page.evaluate("sessionStorage.getItem('treeagent.session')");
    return (JSON.parse(String(stored)) as { sessionId: string }).sessionId;
  }

  it('serve: the chat shows no staff links, session id, turn numbers, timings or debug', async () => {
    const { page, context, errors } = await openPage(browser, customer.url, { width: 1280, height: 800 });
    try {
      expect(await page.locator('#assistant-name').textContent()).toBe('test-desk');
      for (const staffOnly of [
        '.page-nav',
        '#session-label',
        '#save-test',
        '#toggle-tree',
        '#toggle-debug',
        '#side',
      ])
        expect(await page.locator(staffOnly).count(), staffOnly).toBe(0);
      expect(await page.locator('a[href^="/staff"]').count()).toBe(0);
      await say(page, 'hello');
      const meta = (await page.locator('.turn-meta').first().textContent()) ?? '';
      // The time the message was sent, nothing about the turn's inside.
      expect(meta).toMatch(/^\d{1,2}:\d{2}/);
      expect(meta).not.toMatch(/Turn|ms|#|ended at/);
      expect(await page.locator('.turn-meta .inspect').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      const text = (await page.locator('body').textContent()) ?? '';
      expect(text).not.toContain(await sessionOf(page));
      expect(text).not.toContain((await sessionOf(page)).slice(0, 8));
      // "New conversation" starts an empty session.
      const first = await sessionOf(page);
      await page.locator('#new-chat').click();
      await expect.poll(() => sessionOf(page)).not.toBe(first);
      expect(await page.locator('.turn').count()).toBe(0);
      expect(await overflowing(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("serve: an error is told in the customer's words, with no error code, HTTP status or browser reason", async () => {
    const { page, context } = await openPage(browser, customer.url, { width: 1280, height: 800 });
    try {
      await say(page, 'hello');
      // The server out of reach.
      await page.route('**/messages', (route) => route.abort('connectionrefused'));
      await page.locator('#message-input').fill('hello again');
      await page.keyboard.press('Enter');
      const error = page.locator('.turn').nth(1).locator('.notice--error');
      await error.waitFor();
      expect(await error.locator('.error-message').textContent()).toBe(
        'The assistant cannot be reached. Check your connection and try again.',
      );
      expect(await error.locator('.error-code').count()).toBe(0);
      expect(await error.textContent()).not.toMatch(/NETWORK|fetch|HTTP/);
      // The session gone (expired): the server's words for developers are not shown either.
      await page.unroute('**/messages');
      await fetch(`${customer.url}/api/v1/sessions/${await sessionOf(page)}`, {
        method: 'DELETE',
        headers: {
          'X-Session-Token': JSON.parse(
            String(await page.evaluate("sessionStorage.getItem('treeagent.session')")),
          ).token,
        },
      });
      await page.locator('#message-input').fill('are you there?');
      await page.keyboard.press('Enter');
      const lost = page.locator('.turn').nth(2).locator('.notice--error');
      await lost.waitFor();
      expect(await lost.textContent()).not.toMatch(/POST \/api|There is no session|NOT_FOUND/);
    } finally {
      await context.close();
    }
  });

  it("serve with an assistant's name: customers read it (header, title, browser tab), not the tree's name nor Tree Agent's", async () => {
    const named = await serve({
      agent: handoffAgent(),
      logger: memoryLogger(),
      hostname: '127.0.0.1',
      port: 0,
      web: { directory: WEB_DIRECTORY, assistantName: 'Ciclofficina Rossi' },
    });
    const { page, context } = await openPage(browser, named.url, { width: 1280, height: 800 });
    try {
      await expect.poll(() => page.locator('#assistant-name').textContent()).toBe('Ciclofficina Rossi');
      expect(await page.locator('#empty-title').textContent()).toContain('Ciclofficina Rossi');
      await expect.poll(() => page.title()).toBe('Ciclofficina Rossi');
      // Without the option (the customer server of this file): the tree's name, and no "Tree Agent".
      const plain = await openPage(browser, customer.url, { width: 1280, height: 800 });
      try {
        await expect.poll(() => plain.page.title()).toBe('test-desk');
      } finally {
        await plain.context.close();
      }
    } finally {
      await context.close();
      await named.close({ timeoutMs: 1000 });
    }
  });

  it('the staff pages live under /staff/, behind the operator login; the old paths are no pages', async () => {
    const { page, context } = await openPage(browser, `${customer.url}/staff/console`);
    try {
      await page.locator('#operator-login').waitFor();
      await page.goto(`${customer.url}/console`);
      await page.waitForSelector('body.is-ready');
      expect(await page.locator('#operator-login').count()).toBe(0);
      expect(await page.locator('main').textContent()).toMatch(/not found|no page/i);
    } finally {
      await context.close();
    }
  });

  it('dev at 1280×800: the header shows the tree name whole and no control overlaps another', async () => {
    const { page, context, errors } = await openPage(browser, developer.url, { width: 1280, height: 800 });
    try {
      await say(page, 'hello');
      expect(await page.locator('#session-label').isVisible()).toBe(true);
      const chip = await page.locator('#tree-name').evaluate((element) => ({
        scroll: (element as unknown as PageElement).scrollWidth,
        width: element.clientWidth,
      }));
      expect(chip.scroll).toBeLessThanOrEqual(chip.width + 1);
      expect(await topBarProblems(page)).toEqual([]);
      // No two things of the bar drawn over each other (the session id over "Audit").
      const boxes = await page.locator('.topbar .tree-chip, .topbar .page-link, .topbar-actions > *').all();
      const shown: { name: string; x: number; y: number; width: number; height: number }[] = [];
      for (const element of boxes) {
        if (!(await element.isVisible())) continue;
        const box = (await element.boundingBox())!;
        shown.push({ name: (await element.textContent()) ?? '', ...box });
      }
      const overlaps = shown.flatMap((a, i) =>
        shown
          .slice(i + 1)
          .filter(
            (b) =>
              a.x < b.x + b.width - 1 &&
              b.x < a.x + a.width - 1 &&
              a.y < b.y + b.height - 1 &&
              b.y < a.y + a.height - 1,
          )
          .map((b) => `${a.name} over ${b.name}`),
      );
      expect(overlaps).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a handoff on a phone: its own texts, one "Back to the assistant", the reply above the bar, options as options', async () => {
    const context = await touchContext(browser, { width: 390, height: 844 });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    try {
      await page.goto(customer.url);
      await page.waitForSelector('body.is-ready');
      // Some conversation first, so that the log scrolls.
      for (const text of ['hello', 'tell me a story', 'hello']) await say(page, text);
      await say(page, 'a human please');
      await expect.poll(() => page.locator('#handoff-status').textContent()).toBe('Waiting for an operator…');
      // The bar appeared after the turn's answer: the answer (the handoff's notice) is still in view above it.
      await expect
        .poll(() => aboveTheBar(page, page.locator('.turn').last().locator('.msg--agent').last()))
        .toBe(true);
      // Not the agent's "waiting for your answer" while people have the session.
      expect(await page.locator('#composer-hint').textContent()).toBe('An operator will read your message.');
      expect(await page.locator('#composer').getAttribute('class')).not.toContain('is-waiting');
      await expect.poll(() => page.getByRole('button', { name: RETURN_OPTION }).count()).toBe(1);

      const sessionId = await sessionOf(page);
      const token = await loginOperator(customer.app, 'bruno');
      const operator = (path: string, body: unknown) =>
        fetch(`${customer.url}/api/v1/operator/handoffs/${sessionId}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Operator-Token': token },
          body: JSON.stringify(body),
        });
      expect((await operator('/claim', {})).status).toBe(200);
      await expect
        .poll(() => page.locator('#handoff-status').textContent())
        .toBe('Bruno Bianchi is answering you.');
      expect(await page.locator('#composer-hint').textContent()).toBe('Bruno Bianchi reads your messages.');
      expect((await operator('/typing', { typing: true })).status).toBe(204);
      await page.locator('#operator-typing').waitFor();
      const reply = await operator('/messages', {
        content: 'Ciao, sono Bruno: quale ordine?\nDimmi pure il numero.',
        options: ['#1001', '#1002'],
      });
      expect(reply.status).toBe(201);
      const message = page.locator('.msg--operator').last();
      await message.waitFor();
      // Above the bar, inside the log's visible part, once the log has scrolled.
      await expect.poll(() => aboveTheBar(page, message)).toBe(true);
      // The operator types again: the bar grows by a line, and the reply stays in view above it.
      expect((await operator('/typing', { typing: true })).status).toBe(204);
      await page.locator('#operator-typing').waitFor();
      await expect.poll(() => aboveTheBar(page, message)).toBe(true);
      // The operator's options look like the agent's options (not grey browser buttons).
      const options = message.locator('.options button');
      expect(await options.allTextContents()).toEqual(['#1001', '#1002']);
      for (const option of await options.all())
        expect(await option.getAttribute('class')).toContain('option');
      expect(await page.getByRole('button', { name: RETURN_OPTION }).count()).toBe(1);
      expect(await overflowing(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
