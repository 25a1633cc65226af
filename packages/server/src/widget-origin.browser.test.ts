import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from './serve.js';
import { launchChromium } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { widgetAgent } from './test-support/widget-agent.js';
import { startWidgetSite, type WidgetSite } from './test-support/widget-site.js';

/**
 * The widget on a site the deployment does not list, in Debian's Chromium: the site's developer
 * learns why from the widget's `error` event (`ORIGIN_NOT_ALLOWED` and the flag to add), not from a
 * network failure that a Retry never mends. Mocks (labelled): the test shop's exact embedder.
 */

// The page's globals, for the functions run in it: the type check of the repository has no DOM lib.
declare const window: {
  TreeAgentWidget: { on(event: string, listener: (value: unknown) => void): () => void };
  __errors: { code: string; message: string }[];
};

describe('the widget on a site that is not among the widget origins (Chromium)', () => {
  let browser: Browser;
  let agent: RunningServer;
  let site: WidgetSite;
  let page: Page;

  beforeAll(async () => {
    site = await startWidgetSite(() => agent.url);
    agent = await serve({
      agent: widgetAgent(),
      hostname: '127.0.0.1',
      port: 0,
      logger: memoryLogger(),
      widget: { origins: ['https://shop.example.com'] },
    });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.setDefaultTimeout(15_000);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.close({ timeoutMs: 1000 });
    await site?.close();
  });

  it('says ORIGIN_NOT_ALLOWED, with the flag to add, in its error event; no retry loop', async () => {
    await page.goto(site.url);
    await page.locator('treeagent-widget .launcher').waitFor();
    await page.evaluate(() => {
      window.__errors = [];
      window.TreeAgentWidget.on('error', (error) =>
        window.__errors.push(error as { code: string; message: string }),
      );
    });
    await page.locator('treeagent-widget .launcher').click();
    await page.locator('treeagent-widget textarea').fill('hello');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate(() => window.__errors.map((error) => error.code)))
      .toContain('ORIGIN_NOT_ALLOWED');
    const [error] = await page.evaluate(() => window.__errors);
    expect(error!.message).toContain(`--widget-origin ${site.url}`);
    // Not a network failure: the widget offers no Retry that could never succeed.
    await page.locator('treeagent-widget .error').first().waitFor();
    expect(await page.locator('treeagent-widget .error button').count()).toBe(0);
  });
});
