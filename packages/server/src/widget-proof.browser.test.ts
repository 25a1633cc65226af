import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUserId } from './embed/widget-identity.js';
import { operatorDirectory } from './operators/operator-accounts.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { testOperatorAccounts } from './test-support/operators.js';
import { RECEIPT_TEXT, widgetAgent } from './test-support/widget-agent.js';
import { operatorOn, widgetSession } from './test-support/widget-operator.js';
import { startWidgetSite, type WidgetSite } from './test-support/widget-site.js';

/**
 * The widget's whole path, in Italian and in English, in Debian's Chromium: a site on another
 * origin (a second local server) whose page has a strict CSP embeds it; identify() is refused with a
 * forged signature and accepted with the backend's; a conversation with options, a form (a refused
 * answer, the confirmation), a file uploaded and one received; a handoff where an operator claims
 * the session, types and replies with a file; a reload that keeps all of it. Takes
 * docs/screenshots/widget-{closed,open,phone}-{it,en}.png with TREEAGENT_UPDATE_SCREENSHOTS=1.
 * Mocks (labelled): the widget shop's exact embedder and scripted model (its own texts are English
 * in both runs: the tree's language is the tree's; the widget's are the locale's).
 */

const SECRET = 'the-deployment-widget-secret-0123456789';
const SCREENSHOTS =
  process.env.TREEAGENT_UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : `${mkdtempSync(join(tmpdir(), 'treeagent-screenshots-'))}/`;

declare const window: { TreeAgentWidget: { identify(identity: object): Promise<void> } };

/** The widget's texts each run expects (from locales/<lng>/widget.json). */
const LANGUAGES = [
  {
    locale: 'it',
    browserLocale: 'it-IT',
    openLabel: 'Apri la chat con Ciclofficina',
    placeholder: 'Scrivi un messaggio…',
    filesHint: 'Aggiungi un messaggio da inviare con i file.',
    waiting: 'In attesa di un operatore…',
    answering: 'Ti risponde Bruno Bianchi.',
    typing: 'Bruno Bianchi sta scrivendo…',
    joined: 'Bruno Bianchi è entrato nella conversazione.',
    reply: 'Ciao! Ecco la conferma del tuo ordine.',
    time: /^\d{2}:\d{2}$/,
  },
  {
    locale: 'en',
    browserLocale: 'en-US',
    openLabel: 'Open the chat with Ciclofficina',
    placeholder: 'Write a message…',
    filesHint: 'Add a message to send with the files.',
    waiting: 'Waiting for an operator…',
    answering: 'Bruno Bianchi is answering you.',
    typing: 'Bruno Bianchi is typing…',
    joined: 'Bruno Bianchi joined the conversation.',
    reply: 'Hello! Here is your order confirmation.',
    time: /^\d{2}:\d{2}\s?[AP]M$/,
  },
] as const;

let browser: Browser;
let agent: RunningServer;
let site: WidgetSite;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
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
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await agent?.close({ timeoutMs: 1000 });
  await site?.close();
});

describe.each(LANGUAGES)(
  'the widget in "$locale" on another origin under a strict CSP (Chromium)',
  (texts) => {
    it('identify, a conversation with a form, files both ways, a handoff with typing and a reply, a reload', async () => {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        colorScheme: 'light',
        locale: texts.browserLocale,
        timezoneId: 'Europe/Rome',
        reducedMotion: 'reduce',
      });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      page.on('console', (message) => {
        if (message.type() === 'error' && !message.text().includes('status of 401'))
          errors.push(message.text());
      });
      const widget = (selector: string) => page.locator(`treeagent-widget ${selector}`);
      const lastAnswer = () => widget('.msg--assistant .text').last().textContent();
      const say = async (text: string) => {
        const answers = await widget('.msg--assistant').count();
        await widget('textarea').fill(text);
        await page.keyboard.press('Enter');
        await expect.poll(() => widget('.msg--assistant').count()).toBeGreaterThan(answers);
        await expect.poll(() => widget('.send').isDisabled()).toBe(false);
      };
      try {
        await page.goto(`${site.url}/?locale=${texts.locale}&lang=${texts.locale}`);
        await widget('.launcher').waitFor();
        expect(await widget('.launcher').getAttribute('aria-label')).toBe(texts.openLabel);
        await page.screenshot({ path: `${SCREENSHOTS}widget-closed-${texts.locale}.png` });

        // identify(): the backend's signature is accepted, a forged one refused with the reason.
        const identify = (signature: string) =>
          page.evaluate(
            (identity) =>
              window.TreeAgentWidget.identify(identity).then(
                () => 'accepted',
                (error: Error) => error.message,
              ),
            { userId: `user-${texts.locale}`, signature },
          );
        expect(
          await identify(signUserId(`user-${texts.locale}`, 'a-forged-secret-0123456789abcdef')),
        ).toContain('does not match');
        expect(await identify(signUserId(`user-${texts.locale}`, SECRET))).toBe('accepted');

        await widget('.launcher').click();
        expect(await widget('textarea').getAttribute('placeholder')).toBe(texts.placeholder);
        await say('hello');
        expect(await widget('.option:not([disabled])').allTextContents()).toEqual(['Orders', 'Returns']);
        expect(await widget('.msg--user time').first().textContent()).toMatch(texts.time);

        // A form: the question, a refused answer with the reason, the confirmation's Yes.
        await say('book a repair');
        await say('road bike');
        await say('rosa@example');
        expect(await lastAnswer()).toBe('That e-mail address does not look valid. Your e-mail address?');
        await say('rosa@example.com');
        await page.locator('treeagent-widget .option:not([disabled])', { hasText: 'Yes' }).click();
        await expect.poll(lastAnswer).toBe('Booked: your road bike, we write to rosa@example.com.');

        // A file uploaded with the next message, and the agent's file downloaded.
        const [chooser] = await Promise.all([page.waitForEvent('filechooser'), widget('.attach').click()]);
        await chooser.setFiles({
          name: 'bike-photo.txt',
          mimeType: 'text/plain',
          buffer: Buffer.from('a bent wheel'),
        });
        await expect.poll(() => widget('.pending li').getAttribute('data-status')).toBe('ready');
        await widget('.send').click();
        await expect.poll(() => widget('.hint').textContent()).toBe(texts.filesHint);
        await say('receipt');
        expect(await lastAnswer()).toBe('Received: bike-photo.txt. Your receipt is attached.');
        // Sending cleared the hint.
        expect(await widget('.hint').textContent()).toBe('');
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          widget('.msg--assistant .file').last().click(),
        ]);
        expect(readFileSync((await download.path())!, 'utf8')).toBe(RECEIPT_TEXT);

        // A handoff: waiting, claimed by name, typing, a reply with a file.
        await say('a human please');
        await expect.poll(() => widget('.handoff').textContent()).toBe(texts.waiting);
        const { sessionId } = await widgetSession(page, agent);
        const operator = await operatorOn(agent, sessionId);
        expect((await operator.claim()).status).toBe(200);
        await expect.poll(() => widget('.handoff').textContent()).toBe(texts.answering);
        // The handoff row in the widget's language (the engine records it in English).
        await expect.poll(() => widget('.msg--system .text').last().textContent()).toBe(texts.joined);
        expect((await operator.typing(true)).status).toBe(204);
        await expect.poll(() => widget('.typing').textContent()).toBe(texts.typing);
        const fileId = await operator.upload('order-1001.txt', 'Order 1001: confirmed');
        expect((await operator.reply(texts.reply, { attachments: [fileId] })).status).toBe(201);
        const reply = widget('.msg--operator').last();
        await expect.poll(() => reply.locator('.text').textContent()).toBe(texts.reply);
        expect(await reply.locator('.author').textContent()).toBe('Bruno Bianchi');
        expect(await reply.locator('.file').textContent()).toBe('order-1001.txt');
        expect(await widget('.typing').isHidden()).toBe(true);
        await page.screenshot({ path: `${SCREENSHOTS}widget-open-${texts.locale}.png` });

        // A reload keeps the conversation, the handoff and the identity. (Live, the handoff's system
        // row may arrive before or after the turn's answer; the history has them in order.)
        const before = (await widget('.msg .text').allTextContents()).sort();
        expect(before).toHaveLength(19);
        await page.reload();
        await widget('.launcher').click();
        await expect.poll(async () => (await widget('.msg .text').allTextContents()).sort()).toEqual(before);
        await expect.poll(() => widget('.handoff').textContent()).toBe(texts.answering);
        expect(await identify(signUserId(`user-${texts.locale}`, SECRET))).toBe('accepted');
        expect(await widget('.msg--operator .text').last().textContent()).toBe(texts.reply);

        expect(await page.evaluate('window.__violations')).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('on a phone, the open panel fills the screen', async () => {
      const phone = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        colorScheme: 'light',
        locale: texts.browserLocale,
        reducedMotion: 'reduce',
      });
      try {
        const page = await phone.newPage();
        await page.goto(`${site.url}/?locale=${texts.locale}&lang=${texts.locale}`);
        await page.locator('treeagent-widget .launcher').tap();
        await page.locator('treeagent-widget textarea').fill('guide');
        await page.locator('treeagent-widget .send').tap();
        await page.locator('treeagent-widget .msg--assistant').waitFor();
        await page.locator('treeagent-widget .sources summary').tap();
        const box = (await page.locator('treeagent-widget .panel').boundingBox())!;
        expect([box.x, box.y, box.width, box.height]).toEqual([0, 0, 390, 844]);
        expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth')).toBe(true);
        await page.screenshot({ path: `${SCREENSHOTS}widget-phone-${texts.locale}.png` });
      } finally {
        await phone.close();
      }
    });
  },
);
