import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from './serve.js';
import { launchChromium } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { widgetAgent } from './test-support/widget-agent.js';
import { startWidgetSite, type WidgetSite } from './test-support/widget-site.js';

/**
 * The widget's language, in Debian's Chromium: the site's choice (`data-locale`, `setLocale`), then
 * the deployment's (`widget.locale`), then the browser's; `setLocale` rewrites the open panel, its
 * messages' times included (24-hour in Italian, through Intl). Mocks (labelled): the widget shop's
 * exact embedder and scripted model.
 */

declare const window: { TreeAgentWidget: { setLocale(locale: string): void } };

describe("the widget's language (Chromium)", () => {
  let browser: Browser;
  const agents: RunningServer[] = [];
  const sites: WidgetSite[] = [];

  /** An agent with (or without) a deployment locale, and a site that embeds its widget. */
  async function deployment(locale?: string): Promise<WidgetSite> {
    let agent: RunningServer | null = null;
    const site = await startWidgetSite(() => agent!.url);
    agent = await serve({
      agent: widgetAgent(),
      hostname: '127.0.0.1',
      port: 0,
      logger: memoryLogger(),
      widget: { origins: [site.url], ...(locale ? { locale } : {}) },
    });
    agents.push(agent);
    sites.push(site);
    return site;
  }

  async function open(url: string, browserLocale: string): Promise<Page> {
    const context = await browser.newContext({ locale: browserLocale, timezoneId: 'Europe/Rome' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(url);
    await page.locator('treeagent-widget .launcher').waitFor();
    return page;
  }

  const label = (page: Page) => page.locator('treeagent-widget .launcher').getAttribute('aria-label');

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    for (const agent of agents) await agent.close({ timeoutMs: 1000 });
    for (const site of sites) await site.close();
  });

  it("speaks the browser's language when neither the site nor the deployment chooses one", async () => {
    const site = await deployment();
    const page = await open(site.url, 'es-ES');
    expect(await label(page)).toBe('Abrir el chat con Ciclofficina');
    await page.locator('treeagent-widget .launcher').click();
    expect(await page.locator('treeagent-widget textarea').getAttribute('placeholder')).toBe(
      'Escribe un mensaje…',
    );
    expect(await page.locator('treeagent-widget .new').textContent()).toBe('Nueva conversación');
  });

  it("the deployment's language wins over the browser's, the site's over both; setLocale rewrites the open panel", async () => {
    const site = await deployment('it');
    const italian = await open(site.url, 'es-ES');
    expect(await label(italian)).toBe('Apri la chat con Ciclofficina');

    const page = await open(`${site.url}/?locale=en`, 'es-ES');
    expect(await label(page)).toBe('Open the chat with Ciclofficina');
    await page.locator('treeagent-widget .launcher').click();
    await page.locator('treeagent-widget textarea').fill('hello');
    await page.keyboard.press('Enter');
    await page.locator('treeagent-widget .msg--assistant').waitFor();
    const time = page.locator('treeagent-widget .msg--assistant time');
    expect(await time.textContent()).toMatch(/^\d{2}:\d{2}\s?[AP]M$/);

    await page.evaluate(() => window.TreeAgentWidget.setLocale('it-IT'));
    expect(await page.locator('treeagent-widget textarea').getAttribute('placeholder')).toBe(
      'Scrivi un messaggio…',
    );
    expect(await page.locator('treeagent-widget .new').textContent()).toBe('Nuova conversazione');
    expect(await page.locator('treeagent-widget .send').textContent()).toBe('Invia');
    expect(await page.locator('treeagent-widget .close').getAttribute('aria-label')).toBe('Chiudi la chat');
    expect(await page.locator('treeagent-widget .options').getAttribute('aria-label')).toBe(
      'Risposte possibili',
    );
    expect(await page.locator('treeagent-widget .msg--user .sr-only').textContent()).toBe('Hai scritto:');
    expect(await page.evaluate('document.querySelector("treeagent-widget").lang')).toBe('it-IT');
    // 24-hour in Italian, the same minute as before.
    expect(await time.textContent()).toMatch(/^\d{2}:\d{2}$/);
    await page.keyboard.press('Escape');
    expect(await label(page)).toBe('Apri la chat con Ciclofficina');
  });
});
