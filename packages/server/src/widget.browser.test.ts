import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUserId } from './embed/widget-identity.js';
import { operatorDirectory } from './operators/operator-accounts.js';
import { type RunningServer, serve } from './serve.js';
import { axeViolations } from './test-support/axe.js';
import { launchChromium } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { holdTurnStreams } from './test-support/held-turn-streams.js';
import { testOperatorAccounts } from './test-support/operators.js';
import { GUIDE_SOURCES, RECEIPT_TEXT, widgetAgent } from './test-support/widget-agent.js';
import { operatorOn, widgetSession } from './test-support/widget-operator.js';
import { startWidgetSite, type WidgetSite } from './test-support/widget-site.js';

/**
 * The embeddable widget on a site of another origin (a second local server) whose page has a strict
 * Content-Security-Policy (no inline script or style, no eval; scripts and connections only from
 * the site and the agent), in Debian's Chromium: the launcher and the panel in a shadow root, a
 * conversation with options and a streamed answer, a reload that keeps it, identify() with a valid
 * and a forged signature, Esc and focus. Mocks (labelled): the test shop's exact embedder and
 * scripted model.
 */

const SECRET = 'the-deployment-widget-secret-0123456789';

// The page's globals, for the functions run in it: the type check of the repository has no DOM lib.
declare const window: {
  TreeAgentWidget: { identify(identity: object): Promise<void>; open(): void };
  __violations: string[];
};

describe('the embeddable widget on another origin under a strict CSP (Chromium)', () => {
  let browser: Browser;
  let agent: RunningServer;
  let site: WidgetSite;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    // The site first (its origin goes into the agent's allow-list); its page names the agent's URL.
    site = await startWidgetSite(() => agent.url);
    agent = await serve({
      agent: widgetAgent(),
      hostname: '127.0.0.1',
      port: 0,
      logger: memoryLogger(),
      operators: { directory: operatorDirectory(await testOperatorAccounts()) },
      widget: { origins: [site.url], identitySecret: SECRET },
    });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().includes('status of 401'))
        errors.push(message.text());
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.close({ timeoutMs: 1000 });
    await site?.close();
  });

  const launcher = () => page.locator('treeagent-widget .launcher');
  const panel = () => page.locator('treeagent-widget .panel');

  async function say(text: string): Promise<void> {
    const answers = await page.locator('treeagent-widget .msg--assistant').count();
    await page.locator('treeagent-widget textarea').fill(text);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('treeagent-widget .msg--assistant').count())
      .toBeGreaterThan(answers);
    await expect.poll(() => page.locator('treeagent-widget .send').isDisabled()).toBe(false);
  }

  it('mounts a launcher in a shadow root; the panel opens, converses (options, streaming) and closes with Esc', async () => {
    await page.goto(site.url);
    await launcher().waitFor();
    expect(await page.evaluate('!!document.querySelector("treeagent-widget").shadowRoot')).toBe(true);
    expect(await panel().isHidden()).toBe(true);
    expect(await launcher().getAttribute('aria-expanded')).toBe('false');
    expect(await axeViolations(page)).toEqual([]);
    // The theme from the tag's data-accent.
    expect(
      await launcher().evaluate((button) => (globalThis as any).getComputedStyle(button).backgroundColor),
    ).toBe('rgb(122, 31, 92)');

    await launcher().click();
    expect(await panel().isVisible()).toBe(true);
    // First paint, measured by the widget's performance marks: the launcher from the page's start,
    // the open panel from the click. A loaded CI machine is slow: only a generous bound.
    const paint = (name: string) =>
      page.evaluate(
        (entry) => (globalThis as any).performance.getEntriesByName(entry)[0]?.duration as number | undefined,
        name,
      );
    await expect.poll(() => paint('treeagent-widget-open-paint')).toBeGreaterThan(0);
    const openPaint = (await paint('treeagent-widget-open-paint'))!;
    const launcherPaint = (await paint('treeagent-widget-launcher-paint'))!;
    console.log(
      `widget first paint: launcher ${launcherPaint.toFixed(0)} ms after the page's start, open panel ${openPaint.toFixed(0)} ms after the click`,
    );
    expect(openPaint).toBeLessThan(1000);
    expect(launcherPaint).toBeLessThan(5000);
    expect(await launcher().getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('treeagent-widget header h2').textContent()).toBe('Ciclofficina');
    // Focus moves into the panel, to the message box.
    expect(
      await page.evaluate('document.querySelector("treeagent-widget").shadowRoot.activeElement?.tagName'),
    ).toBe('TEXTAREA');
    await say('hello');
    expect(await page.locator('treeagent-widget .msg--assistant .text').last().textContent()).toBe(
      'Hi! How can I help?',
    );
    const options = page.locator('treeagent-widget .option');
    expect(await options.allTextContents()).toEqual(['Orders', 'Returns']);
    // Open, with a conversation: axe-core finds no WCAG 2.1 AA violation (contrast included).
    expect(await axeViolations(page)).toEqual([]);
    // New messages are announced politely; the panel's animation stops under reduced motion.
    expect(await page.locator('treeagent-widget .log').getAttribute('aria-live')).toBe('polite');
    const animation = () =>
      panel().evaluate((element) => (globalThis as any).getComputedStyle(element).animationName as string);
    expect(await animation()).toBe('rise');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await animation()).toBe('none');
    await page.emulateMedia({ reducedMotion: null });
    await say('story');
    expect(await page.locator('treeagent-widget .msg--assistant .text').last().textContent()).toBe(
      'Once upon a time, a bike.',
    );
    // Older options are used up.
    expect(await options.first().isDisabled()).toBe(true);

    // Tab stays inside the open panel; Esc closes it and gives the focus back to the launcher.
    for (let index = 0; index < 8; index++) {
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(
          'document.querySelector("treeagent-widget").shadowRoot.querySelector(".panel").contains(document.querySelector("treeagent-widget").shadowRoot.activeElement)',
        ),
      ).toBe(true);
    }
    await page.keyboard.press('Escape');
    expect(await panel().isHidden()).toBe(true);
    expect(
      await page.evaluate('document.querySelector("treeagent-widget").shadowRoot.activeElement?.className'),
    ).toBe('launcher');
    expect(await page.evaluate('window.__violations')).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('keeps the conversation across a reload and in another tab; "New conversation" starts afresh', async () => {
    await page.reload();
    await launcher().click();
    await expect
      .poll(() => page.locator('treeagent-widget .msg .text').allTextContents())
      .toEqual(['hello', 'Hi! How can I help?', 'story', 'Once upon a time, a bike.']);
    const other = await context.newPage();
    try {
      await other.goto(site.url);
      await other.locator('treeagent-widget .launcher').click();
      await expect
        .poll(() => other.locator('treeagent-widget .msg--user .text').allTextContents())
        .toEqual(['hello', 'story']);
    } finally {
      await other.close();
    }
    await page.locator('treeagent-widget .new').click();
    expect(await page.locator('treeagent-widget .msg').count()).toBe(0);
    await say('hello');
    await page.reload();
    await launcher().click();
    await expect
      .poll(() => page.locator('treeagent-widget .msg--user .text').allTextContents())
      .toEqual(['hello']);
    expect(await page.evaluate('window.__violations')).toEqual([]);
    expect(errors).toEqual([]);
  });

  const texts = (selector: string) => page.locator(`treeagent-widget ${selector}`).allTextContents();
  const lastAnswer = () => page.locator('treeagent-widget .msg--assistant .text').last().textContent();

  it('a form: its questions, a refused e-mail asked again with the reason, the summary with Yes/No buttons', async () => {
    await page.locator('treeagent-widget .new').click();
    await say('book a repair');
    expect(await lastAnswer()).toBe("Sure, let's book the workshop. What kind of bike?");
    await say('mountain bike');
    expect(await lastAnswer()).toBe('Your e-mail address?');
    await say('bob@');
    expect(await lastAnswer()).toBe('That e-mail address does not look valid. Your e-mail address?');
    await say('bob@example.com');
    // The summary keeps its lines; its answers are buttons, reachable from the keyboard.
    expect(await lastAnswer()).toBe('Summary:\n- bike: mtb\n- email: bob@example.com\nIs that right?');
    expect(
      await page
        .locator('treeagent-widget .msg--assistant .text')
        .last()
        .evaluate((node) => (globalThis as any).getComputedStyle(node.parentElement).whiteSpace),
    ).toBe('pre-wrap');
    const yes = page.locator('treeagent-widget .option:not([disabled])', { hasText: 'Yes' });
    expect(await texts('.option:not([disabled])')).toEqual(['Yes', 'No']);
    const answers = await page.locator('treeagent-widget .msg--assistant').count();
    await yes.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('treeagent-widget .msg--assistant').count())
      .toBeGreaterThan(answers);
    expect(await lastAnswer()).toBe('Booked: your mtb bike, we write to bob@example.com.');
    expect(await page.locator('treeagent-widget .msg--user .text').last().textContent()).toBe('Yes');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('files both ways: the user attaches a file, the agent names it and attaches one that downloads', async () => {
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.locator('treeagent-widget .attach').click(),
    ]);
    await chooser.setFiles({
      name: 'photo-note.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('a flat tyre'),
    });
    await expect
      .poll(() => page.locator('treeagent-widget .pending li').getAttribute('data-status'))
      .toBe('ready');
    expect(await texts('.pending .name')).toEqual(['photo-note.txt']);
    // Files alone are not a message: the widget says what to add.
    await page.locator('treeagent-widget .send').click();
    await expect
      .poll(() => page.locator('treeagent-widget .hint').textContent())
      .toBe('Add a message to send with the files.');
    await say('receipt');
    expect(await page.locator('treeagent-widget .msg--user .file').last().textContent()).toBe(
      'photo-note.txt',
    );
    expect(await page.locator('treeagent-widget .pending li').count()).toBe(0);
    expect(await lastAnswer()).toBe('Received: photo-note.txt. Your receipt is attached.');
    const file = page.locator('treeagent-widget .msg--assistant .file').last();
    expect(await file.textContent()).toBe('receipt-1001.txt');
    expect(await file.getAttribute('aria-label')).toBe(
      `receipt-1001.txt, ${RECEIPT_TEXT.length} byte, download`,
    );
    const [download] = await Promise.all([page.waitForEvent('download'), file.click()]);
    expect(download.suggestedFilename()).toBe('receipt-1001.txt');
    expect(readFileSync((await download.path())!, 'utf8')).toBe(RECEIPT_TEXT);
    expect(await page.evaluate('window.__violations')).toEqual([]);
  });

  it('sources under an answer (links when they have an address); an error offers Retry, which sends again', async () => {
    await say('guide');
    const answer = page.locator('treeagent-widget .msg--assistant').last();
    expect(await answer.locator('.text strong').textContent()).toBe('6–8 bar');
    expect(await answer.locator('.sources summary').textContent()).toBe('Sources (2)');
    await answer.locator('.sources summary').click();
    const link = answer.locator('.sources a');
    expect(await link.textContent()).toBe(GUIDE_SOURCES[0]!.title);
    expect(await link.getAttribute('href')).toBe(GUIDE_SOURCES[0]!.url);
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await texts('.sources .source-content')).toEqual(GUIDE_SOURCES.map((source) => source.content));
    expect(await axeViolations(page)).toEqual([]);

    await page.locator('treeagent-widget textarea').fill('flaky');
    await page.keyboard.press('Enter');
    const error = page.locator('treeagent-widget .error');
    await error.waitFor();
    expect(await error.getAttribute('role')).toBe('alert');
    const retry = error.locator('button');
    expect(await retry.textContent()).toBe('Retry');
    await retry.click();
    await expect.poll(lastAnswer).toBe('In stock: 3 bikes.');
    expect(await error.count()).toBe(0);
    expect((await texts('.msg--user .text')).filter((text) => text === 'flaky')).toHaveLength(1);
    expect(await page.evaluate('window.__violations')).toEqual([]);
  });

  it('identify(): a signature from the site backend is accepted, a forged one refused with the reason', async () => {
    // identify() in the page: 'accepted', or the message it was refused with.
    const identify = (userId: string, signature: string) =>
      page.evaluate(
        (identity) =>
          window.TreeAgentWidget.identify(identity).then(
            () => 'accepted',
            (error: Error) => error.message,
          ),
        { userId, signature },
      );
    const forged = await identify('user-42', signUserId('user-42', 'not-the-deployment-secret-0123456789'));
    expect(forged).toContain('The signature of user id "user-42" does not match');
    expect(forged).toContain('HMAC-SHA256');
    // A real signature, but of another user: no use for user-42.
    const borrowed = await identify('user-42', signUserId('user-7', SECRET));
    expect(borrowed).toContain('The signature of user id "user-42" does not match');
    const valid = await identify('user-42', signUserId('user-42', SECRET));
    expect(valid).toBe('accepted');
    // The user's own conversation: the session the widget now holds is for user-42.
    const stored = await widgetSession(page, agent);
    expect(stored.userId).toBe('user-42');
    await say('hello');
    expect(await page.locator('treeagent-widget .msg--assistant .text').last().textContent()).toBe(
      'Hi! How can I help?',
    );
    expect(await page.evaluate('window.__violations')).toEqual([]);
  });

  it('a handoff: waiting, the operator by name, their typing and their reply with options, live', async () => {
    await say('a human please');
    await expect
      .poll(() => page.locator('treeagent-widget .handoff').textContent())
      .toBe('Waiting for an operator…');
    const { sessionId } = await widgetSession(page, agent);
    const operator = await operatorOn(agent, sessionId);
    expect((await operator.claim()).status).toBe(200);
    await expect
      .poll(() => page.locator('treeagent-widget .handoff').textContent())
      .toBe('Bruno Bianchi is answering you.');
    expect((await operator.typing(true)).status).toBe(204);
    await expect
      .poll(() => page.locator('treeagent-widget .typing').textContent())
      .toBe('Bruno Bianchi is typing…');
    // The operator attaches a file to the reply.
    const fileId = await operator.upload('order-1001.txt', 'Order #1001: shipped');
    expect(
      (await operator.reply('Ciao, quale ordine?', { options: ['#1001', '#1002'], attachments: [fileId] }))
        .status,
    ).toBe(201);
    const reply = page.locator('treeagent-widget .msg--operator');
    await reply.waitFor();
    expect(await reply.locator('.author').textContent()).toBe('Bruno Bianchi');
    expect(await reply.locator('.text').textContent()).toBe('Ciao, quale ordine?');
    const [download] = await Promise.all([page.waitForEvent('download'), reply.locator('.file').click()]);
    expect(download.suggestedFilename()).toBe('order-1001.txt');
    expect(readFileSync((await download.path())!, 'utf8')).toBe('Order #1001: shipped');
    expect(await page.locator('treeagent-widget .option:not([disabled])').allTextContents()).toEqual([
      '#1001',
      '#1002',
    ]);
    expect(await page.locator('treeagent-widget .typing').isHidden()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate('window.__violations')).toEqual([]);
  });

  it('on a phone the open panel fills the screen, nothing outside it', async () => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      colorScheme: 'light',
      reducedMotion: 'reduce',
    });
    try {
      const small = await phone.newPage();
      await small.goto(site.url);
      await small.locator('treeagent-widget .launcher').tap();
      await small.locator('treeagent-widget textarea').fill('hello');
      await small.locator('treeagent-widget .send').tap();
      await small.locator('treeagent-widget .msg--assistant').waitFor();
      const box = (await small.locator('treeagent-widget .panel').boundingBox())!;
      expect([box.x, box.y, box.width, box.height]).toEqual([0, 0, 390, 844]);
      expect(await small.evaluate('document.documentElement.scrollWidth <= innerWidth')).toBe(true);
    } finally {
      await phone.close();
    }
  });

  describe('when a message cannot go as it is', () => {
    /** The widget in a fresh browser context (its own localStorage), in `locale`, open. */
    async function freshWidget(locale = 'en-US'): Promise<{ fresh: BrowserContext; widget: Page }> {
      const fresh = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale });
      const widget = await fresh.newPage();
      widget.setDefaultTimeout(15_000);
      await widget.goto(site.url);
      await widget.locator('treeagent-widget .launcher').click();
      return { fresh, widget };
    }
    const type = async (widget: Page, text: string) => {
      await widget.locator('treeagent-widget textarea').fill(text);
      await widget.keyboard.press('Enter');
    };
    const answersOf = (widget: Page) => widget.locator('treeagent-widget .msg--assistant .text');

    it('two tabs open on the conversation: what is said in one shows in the other', async () => {
      const { fresh, widget } = await freshWidget();
      try {
        await type(widget, 'hello');
        await expect.poll(() => answersOf(widget).last().textContent()).toBe('Hi! How can I help?');
        const other = await fresh.newPage();
        other.setDefaultTimeout(15_000);
        await other.goto(site.url);
        await other.locator('treeagent-widget .launcher').click();
        await expect.poll(() => answersOf(other).allTextContents()).toEqual(['Hi! How can I help?']);
        // Both open: a turn in the first tab shows in the second.
        await type(widget, 'story');
        await expect.poll(() => answersOf(widget).last().textContent()).toBe('Once upon a time, a bike.');
        await expect
          .poll(() => other.locator('treeagent-widget .msg .text').allTextContents())
          .toEqual(['hello', 'Hi! How can I help?', 'story', 'Once upon a time, a bike.']);
        // And back: the second tab's turn shows in the first, once.
        await type(other, 'hello');
        await expect.poll(() => answersOf(widget).count()).toBe(3);
        expect(await widget.locator('treeagent-widget .msg--user .text').allTextContents()).toEqual([
          'hello',
          'story',
          'hello',
        ]);
      } finally {
        await fresh.close();
      }
    });

    it("a reload keeps 'Your answer…' when the last answer waits for the user's (the handoff's notice)", async () => {
      const { fresh, widget } = await freshWidget();
      try {
        const box = widget.locator('treeagent-widget textarea');
        await type(widget, 'human');
        await expect.poll(() => box.getAttribute('placeholder')).toBe('Your answer…');
        await widget.reload();
        await widget.locator('treeagent-widget .launcher').click();
        await expect.poll(() => answersOf(widget).count()).toBe(1);
        await expect.poll(() => box.getAttribute('placeholder')).toBe('Your answer…');
      } finally {
        await fresh.close();
      }
    });

    it("a reload keeps an answer's sources", async () => {
      const { fresh, widget } = await freshWidget();
      try {
        await type(widget, 'guide');
        const sources = widget.locator('treeagent-widget .msg--assistant .sources summary');
        await expect.poll(() => sources.last().textContent()).toBe('Sources (2)');
        await widget.reload();
        await widget.locator('treeagent-widget .launcher').click();
        await expect.poll(() => sources.last().textContent()).toBe('Sources (2)');
      } finally {
        await fresh.close();
      }
    });

    it('a session the server lost (expired, deleted): the next message starts a new one and is answered', async () => {
      const { fresh, widget } = await freshWidget();
      try {
        await type(widget, 'hello');
        await expect.poll(() => answersOf(widget).last().textContent()).toBe('Hi! How can I help?');
        const before = await widgetSession(widget, agent);
        const deleted = await fetch(`${agent.url}/api/v1/sessions/${before.sessionId}`, {
          method: 'DELETE',
          headers: { 'X-Session-Token': before.token },
        });
        expect(deleted.status).toBeLessThan(300);
        await type(widget, 'story');
        await expect.poll(() => answersOf(widget).last().textContent()).toBe('Once upon a time, a bike.');
        expect(await widget.locator('treeagent-widget .error').count()).toBe(0);
        expect((await widgetSession(widget, agent)).sessionId).not.toBe(before.sessionId);
      } finally {
        await fresh.close();
      }
    });

    it("a refused message (too long): the server's words in the widget's language, no Retry, the text back in the box", async () => {
      const { fresh, widget } = await freshWidget('it-IT');
      try {
        const long = 'x'.repeat(12_000);
        await type(widget, long);
        const error = widget.locator('treeagent-widget .error');
        await error.waitFor();
        expect(await error.textContent()).toMatch(/^Il messaggio è troppo lungo/);
        expect(await error.locator('button').count()).toBe(0);
        expect(await widget.locator('treeagent-widget textarea').inputValue()).toBe(long);
        expect(await widget.locator('treeagent-widget .msg--user').count()).toBe(0);
      } finally {
        await fresh.close();
      }
    });

    it('the server unreachable: the message stays (greyed) with Retry under it; Retry sends it once', async () => {
      const { fresh, widget } = await freshWidget();
      try {
        await type(widget, 'hello');
        await expect.poll(() => answersOf(widget).last().textContent()).toBe('Hi! How can I help?');
        await widget.route('**/messages', (route) => route.abort('connectionrefused'));
        await type(widget, 'story');
        const error = widget.locator('treeagent-widget .error');
        await error.waitFor();
        expect(await error.textContent()).toMatch(/^The assistant cannot be reached\./);
        expect(await widget.locator('treeagent-widget .msg--failed .text').allTextContents()).toEqual([
          'story',
        ]);
        await widget.unroute('**/messages');
        await error.locator('button').click();
        await expect.poll(() => answersOf(widget).last().textContent()).toBe('Once upon a time, a bike.');
        expect(await widget.locator('treeagent-widget .msg--user .text').allTextContents()).toEqual([
          'hello',
          'story',
        ]);
        expect(await widget.locator('treeagent-widget .msg--failed').count()).toBe(0);
      } finally {
        await fresh.close();
      }
    });

    it('"New conversation" while an answer is on its way: the answer is dropped, the next message goes at once', async () => {
      const { fresh, widget } = await freshWidget();
      try {
        let release: () => void = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        await widget.route('**/messages', async (route) => {
          await held;
          await route.continue().catch(() => {});
        });
        await type(widget, 'story');
        await widget.locator('treeagent-widget .msg--user').waitFor();
        await widget.locator('treeagent-widget .new').click();
        expect(await widget.locator('treeagent-widget .msg').count()).toBe(0);
        await widget.unroute('**/messages');
        release();
        await type(widget, 'hello');
        await expect.poll(() => answersOf(widget).allTextContents()).toEqual(['Hi! How can I help?']);
        await widget.waitForTimeout(300);
        expect(await widget.locator('treeagent-widget .msg .text').allTextContents()).toEqual([
          'hello',
          'Hi! How can I help?',
        ]);
      } finally {
        await fresh.close();
      }
    });
  });

  it('the next message goes as soon as the answer is shown, while the server still holds the stream', async () => {
    const held = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const streams = await holdTurnStreams(held);
      const other = await held.newPage();
      await other.goto(site.url);
      await other.locator('treeagent-widget .launcher').click();
      const answers = other.locator('treeagent-widget .msg--assistant .text');
      await other.locator('treeagent-widget textarea').fill('hello');
      await other.keyboard.press('Enter');
      await expect.poll(() => answers.last().textContent()).toBe('Hi! How can I help?');
      // The first turn's stream is still open: the widget is ready all the same.
      await expect.poll(() => other.locator('treeagent-widget .send').isDisabled()).toBe(false);
      await other.locator('treeagent-widget textarea').fill('story');
      await other.keyboard.press('Enter');
      await expect.poll(() => answers.last().textContent()).toBe('Once upon a time, a bike.');
      expect(await other.locator('treeagent-widget textarea').inputValue()).toBe('');
      await streams.release(other);
    } finally {
      await held.close();
    }
  });
});
