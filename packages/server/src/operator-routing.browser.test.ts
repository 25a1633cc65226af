import type { NodeDefinition } from '@treeagent/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorDirectory } from './operators/operator-accounts.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium, openPage } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { handoffAgent, handoffNodes } from './test-support/handoff.js';
import { openOperatorConsole } from './test-support/operator-console.js';
import { loginOperator, testOperatorsInTeams } from './test-support/operators.js';
import { WEB_DIRECTORY } from './web-directory.js';

/** The handoff's team from what the user wrote: "sales", "billing", "night", else support. */
function routedNodes(): NodeDefinition[] {
  const [root, ...rest] = handoffNodes() as [Extract<NodeDefinition, { type: 'root' }>, ...NodeDefinition[]];
  return [
    {
      ...root,
      beforeRun: async (...args: Parameters<NonNullable<typeof root.beforeRun>>) => {
        const context = args[1];
        const result = await root.beforeRun?.(...args);
        const team = /\b(sales|billing|night)\b/i.exec(context.input.original)?.[1]?.toLowerCase();
        if (!result || !('handoff' in result) || !result.handoff || !team) return result;
        return { ...result, handoff: { ...result.handoff, queue: team } };
      },
    } as NodeDefinition,
    ...rest,
  ];
}

/**
 * Routing in Chromium, with two operators of different teams in their consoles (Bruno: support
 * and sales; Carla: support, sales and billing): round robin in support, least busy with a maximum
 * in sales, a transfer to billing with a note, and a team out of its hours ("night"): the user reads
 * its message and leaves a callback request in the chat page, which Carla's console lists and she
 * marks done.
 */
describe('operator routing in the console (Chromium)', () => {
  let browser: Browser;
  let server: RunningServer;

  beforeAll(async () => {
    const teams: Record<string, string[]> = {
      bruno: ['support', 'sales'],
      carla: ['support', 'sales', 'billing', 'night'],
    };
    const accounts = await testOperatorsInTeams(teams);
    server = await serve({
      agent: handoffAgent({ nodes: routedNodes() }),
      port: 0,
      web: { directory: WEB_DIRECTORY },
      logger: memoryLogger(),
      operators: { directory: operatorDirectory(accounts) },
      handoff: {
        streamPollMs: 500,
        teams: {
          support: { policy: 'round-robin' },
          sales: { policy: 'least-busy', maxConcurrent: 1 },
          night: {
            name: 'Night desk',
            hours: { timeZone: 'Europe/Rome', open: {} },
            outOfHoursMessage: 'We are closed: leave your number and we call you back.',
          },
        },
      },
    });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close({ timeoutMs: 1000 });
  });
  const operatorConsole = (login: 'bruno' | 'carla') =>
    openOperatorConsole(browser, server.url, login, { width: 1360, height: 1000 });

  async function api(login: 'anna' | 'bruno' | 'carla', method: string, path: string, body?: unknown) {
    const response = await fetch(`${server.url}/api/v1/operator${path}`, {
      method,
      headers: {
        'X-Operator-Token': await loginOperator(server.app, login),
        'Content-Type': 'application/json',
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status, `${method} ${path}`).toBeLessThan(300);
    return response.json() as Promise<Record<string, unknown>>;
  }

  /** A user (through the API) who asks for a person of `team`; resolves to the session id. */
  async function userAsks(text: string): Promise<string> {
    const created = (await (await fetch(`${server.url}/api/v1/sessions`, { method: 'POST' })).json()) as {
      sessionId: string;
      token: string;
    };
    const said = await fetch(`${server.url}/api/v1/sessions/${created.sessionId}/messages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Session-Token': created.token },
      body: JSON.stringify({ message: text }),
    });
    expect(said.status).toBe(200);
    return created.sessionId;
  }

  /** What `page`'s queue says of a session's holder ("Claimed by you", "Waiting"…). */
  const statusIn = (page: Page, sessionId: string) =>
    page
      .locator(`.queue-item[data-session-id="${sessionId}"] .queue-status`)
      .textContent({ timeout: 500 })
      .catch(() => null);

  it('round robin, least busy with a maximum, a transfer with a note, and out of hours with a callback request', async () => {
    const bruno = await operatorConsole('bruno');
    const carla = await operatorConsole('carla');
    try {
      await expect
        .poll(async () =>
          ((await api('anna', 'GET', '/routing/presence')).presence as { status: string }[]).map(
            (item) => item.status,
          ),
        )
        .toEqual(['online', 'online']);

      // Round robin in support: Bruno, Carla, Bruno (id order), each seen in both consoles.
      const support: string[] = [];
      for (const _ of [1, 2, 3]) support.push(await userAsks('I want a human'));
      await expect.poll(() => statusIn(bruno.page, support[0]!)).toBe('Claimed by you');
      await expect.poll(() => statusIn(carla.page, support[0]!)).toBe('Claimed by Bruno Bianchi');
      await expect.poll(() => statusIn(carla.page, support[1]!)).toBe('Claimed by you');
      await expect.poll(() => statusIn(bruno.page, support[1]!)).toBe('Claimed by Carla Verdi');
      await expect.poll(() => statusIn(bruno.page, support[2]!)).toBe('Claimed by you');
      for (const [index, sessionId] of support.entries())
        await api(index === 1 ? 'carla' : 'bruno', 'POST', `/handoffs/${sessionId}/close`, {});

      // Least busy in sales, at most one each: Bruno (tie, by id), Carla, then the third waits.
      const sales: string[] = [];
      for (const _ of [1, 2, 3]) sales.push(await userAsks('I want a human for sales'));
      await expect.poll(() => statusIn(bruno.page, sales[0]!)).toBe('Claimed by you');
      await expect.poll(() => statusIn(carla.page, sales[1]!)).toBe('Claimed by you');
      await expect.poll(() => statusIn(bruno.page, sales[2]!)).toBe('Waiting');
      // Carla's console follows its own stream: it may show the third one a moment later.
      await expect.poll(() => statusIn(carla.page, sales[2]!)).toBe('Waiting');

      // Bruno passes his sales conversation to billing (Carla's team only), with a note.
      await api('bruno', 'POST', `/routing/handoffs/${sales[0]}/transfer`, {
        team: 'billing',
        note: 'A fleet order: 40 bikes',
      });
      await expect.poll(() => statusIn(carla.page, sales[0]!)).toBe('Waiting');
      await carla.page.locator(`.queue-item[data-session-id="${sales[0]}"]`).click();
      await expect
        .poll(() => carla.page.locator('#notes').textContent())
        .toContain('A fleet order: 40 bikes');
      expect(
        await carla.page
          .locator(`.queue-item[data-session-id="${sales[0]}"] .queue-chip`)
          .first()
          .textContent(),
      ).toBe('billing');

      // Out of hours: the night desk says so in the chat page, which offers the callback form.
      const user = await openPage(browser, `${server.url}/`, { width: 1000, height: 900 });
      // A day to be called back that is never in the past, whenever the test runs.
      const tomorrow = new Date(Date.now() + 36 * 3600_000).toISOString().slice(0, 10);
      try {
        await user.page.locator('#message-input').fill('I want a human at night');
        await user.page.keyboard.press('Enter');
        // The team's reply comes after the turn, through the page's live stream (no reload).
        await user.page.getByText('We are closed: leave your number and we call you back.').waitFor();
        await user.page.locator('#callback-request').waitFor();
        await user.page.locator('#callback-contact').fill('+39 333 1234567');
        await user.page.locator('#callback-date').fill(tomorrow);
        await user.page.locator('#callback-from').fill('09:30');
        await user.page.locator('#callback-to').fill('11:00');
        await user.page.locator('#callback-send').click();
        expect(await user.page.locator('#callback-sent').textContent()).toBe(
          `Thank you: the team will contact you on ${tomorrow} between 09:30 and 11:00 (Europe/Rome).`,
        );
        expect(user.errors).toEqual([]);
      } finally {
        await user.context.close();
      }
      // Carla (night desk) sees it in her console's callbacks and marks it done; Bruno never sees it.
      const item = carla.page.locator('#callback-queue .callback-item');
      await expect.poll(() => item.count()).toBe(1);
      expect(await item.textContent()).toContain('+39 333 1234567');
      expect(await item.textContent()).toContain(`${tomorrow}, 09:30–11:00 (Europe/Rome)`);
      expect(await bruno.page.locator('#callback-queue').count()).toBe(0);
      await item.getByRole('button', { name: 'Mark done' }).click();
      await expect.poll(() => carla.page.locator('#callback-queue').count()).toBe(0);
      expect(
        ((await api('carla', 'GET', '/callbacks?status=done')).callbacks as { doneBy: string }[]).map(
          (done) => done.doneBy,
        ),
      ).toEqual(['carla']);
      expect(bruno.errors).toEqual([]);
      expect(carla.errors).toEqual([]);
    } finally {
      await bruno.context.close();
      await carla.context.close();
    }
  }, 120_000);
});
