import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorDirectory } from './operators/operator-accounts.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium, openPage } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { handoffAgent } from './test-support/handoff.js';
import { loginOperator, OPERATOR_PASSWORDS, testOperatorsInTeams } from './test-support/operators.js';
import { WEB_DIRECTORY } from './web-directory.js';

/**
 * Teams in Chromium: two operators of different teams (Bruno in support, Carla in sales) online in
 * their consoles; a new support conversation is assigned by round robin and alerts only Bruno (a
 * browser notification and the chime); passed on to sales, it alerts Carla. The notifications are
 * real (permission granted to the page); a script added to the page only records them (test-only).
 */
describe('teams, presence and notifications in the console (Chromium)', () => {
  let browser: Browser;
  let server: RunningServer;

  beforeAll(async () => {
    const accounts = await testOperatorsInTeams({ bruno: ['support'], carla: ['sales'] });
    server = await serve({
      agent: handoffAgent(),
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

  async function console(login: 'bruno' | 'carla') {
    const opened = await openPage(browser, `${server.url}/staff/console`);
    await opened.context.grantPermissions(['notifications'], { origin: server.url });
    // Test-only recorder: the page's notifications still go to the real Notification.
    await opened.context.addInitScript(`
      const Real = Notification;
      const shown = [];
      globalThis.shown = shown;
      globalThis.Notification = class extends Real {
        constructor(title, options) {
          super(title, options);
          shown.push(title + ': ' + (options?.body ?? ''));
        }
      };
    `);
    await opened.page.reload();
    await opened.page.locator('#operator-login-name').fill(login);
    await opened.page.locator('#operator-password').fill(OPERATOR_PASSWORDS[login]);
    await opened.page.locator('#operator-login button[type=submit]').click();
    await opened.page.locator('#presence-status').waitFor();
    await opened.page.locator('#presence-status').selectOption('online');
    // The queue as found is read first ("…" until then): only conversations after it alert.
    await opened.page.locator('#queue-tab-open:text-is("Queue (0)")').waitFor();
    return opened;
  }

  const shown = (page: Page) => page.evaluate(() => (globalThis as unknown as { shown: string[] }).shown);
  const alerts = (page: Page) => page.locator('#presence-alerts').getAttribute('data-alerts');

  it("alerts the online operators of the conversation's team only, and the other team after a transfer", async () => {
    const bruno = await console('bruno');
    const carla = await console('carla');
    try {
      await expect
        .poll(async () => {
          const response = await fetch(`${server.url}/api/v1/operator/routing/presence`, {
            headers: { 'X-Operator-Token': await loginOperator(server.app, 'anna') },
          });
          return ((await response.json()) as { presence: { status: string }[] }).presence.map(
            (item) => item.status,
          );
        })
        .toEqual(['online', 'online']);
      const created = (await (await fetch(`${server.url}/api/v1/sessions`, { method: 'POST' })).json()) as {
        sessionId: string;
        token: string;
      };
      const said = await fetch(`${server.url}/api/v1/sessions/${created.sessionId}/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Session-Token': created.token },
        body: JSON.stringify({ message: 'I want a human' }),
      });
      expect(said.status).toBe(200);
      await expect.poll(() => alerts(bruno.page)).toBe('1');
      expect(await shown(bruno.page)).toEqual(['New conversation in support: asked for a person']);
      expect(await alerts(carla.page)).toBe('0');

      // Bruno passes it to sales: Carla is alerted, though she is reading the Closed tab (the alerts
      // and the Queue tab's count follow the live queue on either tab).
      await carla.page.click('#queue-tab-closed');
      await carla.page.locator('#queue-tab-closed[aria-selected="true"]').waitFor();
      const token = await loginOperator(server.app, 'bruno');
      await fetch(`${server.url}/api/v1/operator/handoffs/${created.sessionId}/claim`, {
        method: 'POST',
        headers: { 'X-Operator-Token': token, 'Content-Type': 'application/json' },
        body: '{}',
      });
      const moved = await fetch(
        `${server.url}/api/v1/operator/routing/handoffs/${created.sessionId}/transfer`,
        {
          method: 'POST',
          headers: { 'X-Operator-Token': token, 'Content-Type': 'application/json' },
          body: JSON.stringify({ team: 'sales', note: 'A fleet order' }),
        },
      );
      expect(moved.status).toBe(200);
      await expect.poll(() => alerts(carla.page)).toBe('1');
      expect(await shown(carla.page)).toEqual(['New conversation in sales: asked for a person']);
      expect(await carla.page.textContent('#queue-tab-open')).toBe('Queue (1)');
      expect(bruno.errors).toEqual([]);
      expect(carla.errors).toEqual([]);
    } finally {
      await bruno.context.close();
      await carla.context.close();
    }
  });
});
