import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorDirectory } from './operators/operator-accounts.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { loginOperator, testOperatorAccounts } from './test-support/operators.js';
import { widgetAgent } from './test-support/widget-agent.js';
import { operatorOn, widgetSession } from './test-support/widget-operator.js';
import { startWidgetSite, type WidgetSite } from './test-support/widget-site.js';

/**
 * CSAT in the widget, in Debian's Chromium: after the operator hands the conversation back, the
 * widget asks for a 1–5 rating and a comment (in the page's language: Italian here), refuses to send
 * without a rating, and the rating reaches the analytics by operator and team, as the chat page's does.
 * Mocks (labelled): the widget shop's exact embedder and scripted model.
 */
describe('satisfaction in the widget (Chromium)', () => {
  let browser: Browser;
  let agent: RunningServer;
  let site: WidgetSite;

  beforeAll(async () => {
    site = await startWidgetSite(() => agent.url);
    agent = await serve({
      agent: widgetAgent(),
      hostname: '127.0.0.1',
      port: 0,
      logger: memoryLogger(),
      operators: { directory: operatorDirectory(await testOperatorAccounts()) },
      widget: { origins: [site.url] },
    });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.close({ timeoutMs: 1000 });
    await site?.close();
  });

  it('asks 1–5 and a comment after the hand-back, in Italian, and the rating reaches the analytics', async () => {
    const context = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    const widget = (selector: string) => page.locator(`treeagent-widget ${selector}`);
    try {
      await page.goto(`${site.url}/?locale=it&lang=it`);
      await widget('.launcher').click();
      await widget('textarea').fill('a human please');
      await page.keyboard.press('Enter');
      await widget('.handoff:not([hidden])').waitFor();
      const { sessionId } = await widgetSession(page, agent);
      const operator = await operatorOn(agent, sessionId);
      expect((await operator.claim()).status).toBe(200);
      expect((await operator.reply('Fatto: ordine spedito.')).status).toBe(201);
      expect(await widget('.rate').count()).toBe(0);
      const token = await loginOperator(agent.app, 'bruno');
      const handBack = await fetch(
        `${agent.url}/api/v1/operator/handoffs/${encodeURIComponent(sessionId)}/hand-back`,
        {
          method: 'POST',
          headers: { 'X-Operator-Token': token, 'Content-Type': 'application/json' },
          body: '{}',
        },
      );
      expect(handBack.status).toBe(200);

      const form = widget('.rate');
      await form.waitFor();
      expect(await widget('.rate-question').textContent()).toBe(
        "Quanto sei soddisfatto dell'aiuto ricevuto?",
      );
      await widget('.rate-send').click();
      expect(await widget('.rate-problem').textContent()).toBe('Scegli prima un voto da 1 a 5.');
      await widget('.rate-value').nth(3).click();
      expect(await widget('.rate-value[aria-pressed="true"]').textContent()).toBe('4');
      expect(await widget('.rate-value').nth(3).getAttribute('aria-label')).toBe('4: Soddisfatto');
      await widget('.rate textarea').fill('Veloce e gentile');
      await widget('.rate-send').click();
      await expect
        .poll(() => widget('.rate [role="status"]').textContent())
        .toBe('Grazie per la tua valutazione.');

      const report = (await (
        await fetch(`${agent.url}/api/v1/analytics/satisfaction`, { headers: { 'X-Operator-Token': token } })
      ).json()) as {
        count: number;
        byOperator: { key: string; average: number }[];
        byTeam: { key: string }[];
        comments: { comment: string }[];
      };
      expect(report.count).toBe(1);
      expect(report.byOperator).toEqual([expect.objectContaining({ key: 'bruno', average: 4 })]);
      expect(report.comments.map((item) => item.comment)).toEqual(['Veloce e gentile']);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
