import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorDirectory } from './operators/operator-accounts.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium, openPage } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { HANDOFF_NOTICE, handoffAgent } from './test-support/handoff.js';
import { holdTurnStreams } from './test-support/held-turn-streams.js';
import { testOperatorAccounts } from './test-support/operators.js';
import { WEB_DIRECTORY } from './web-directory.js';

const CLOSED = 'We are closed: leave your number and we call you back.';

/**
 * The chat page's live stream against the turn that it follows, in Chromium: a team's message
 * written right after the turn (out of hours, the team says so) reaches the page while the turn's
 * own answer is still on its way. The test holds the answer back until the live stream has shown the
 * team's message — the order that a loaded machine produces by chance — and the message must stay.
 */
describe('the chat page live stream (Chromium)', () => {
  let browser: Browser;
  let server: RunningServer;

  beforeAll(async () => {
    server = await serve({
      agent: handoffAgent(),
      port: 0,
      web: { directory: WEB_DIRECTORY },
      logger: memoryLogger(),
      operators: { directory: operatorDirectory(await testOperatorAccounts()) },
      handoff: {
        streamPollMs: 500,
        teams: {
          // Never open: every handoff is out of hours, and the team writes CLOSED after the turn.
          support: { hours: { timeZone: 'Europe/Rome', open: {} }, outOfHoursMessage: CLOSED },
        },
      },
    });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close({ timeoutMs: 1000 });
  });

  it("keeps a team's message that the live stream brought while the turn was still answering", async () => {
    const user = await openPage(browser, `${server.url}/`, { width: 1000, height: 900 });
    try {
      const closed = user.page.getByText(CLOSED);
      let answerHeld = false;
      // The turn's answer (one server-sent-events response) reaches the page only after the live
      // stream has shown the team's message.
      await user.page.route('**/api/v1/sessions/*/messages', async (route) => {
        const response = await route.fetch();
        answerHeld = true;
        await closed.waitFor({ timeout: 30_000 });
        await route.fulfill({ response });
      });
      await user.page.locator('#message-input').fill('I want a human');
      await user.page.keyboard.press('Enter');
      await expect.poll(() => answerHeld, { timeout: 30_000 }).toBe(true);
      // The turn has ended (its answer shown, the page no longer busy), and the team's message is still there.
      await user.page.getByText(HANDOFF_NOTICE).waitFor();
      await expect.poll(() => user.page.locator('#log[aria-busy]').count()).toBe(0);
      expect(await closed.count()).toBe(1);
      // The stream shows each row once: the team's message is not repeated by a later poll.
      await user.page.waitForTimeout(1200);
      expect(await closed.count()).toBe(1);
      expect(user.errors).toEqual([]);
    } finally {
      await user.context.close();
    }
  }, 90_000);

  it('sends the next message as soon as the answer is shown, while the server still holds the stream', async () => {
    const user = await openPage(browser, `${server.url}/`, { width: 1000, height: 900 });
    try {
      const streams = await holdTurnStreams(user.context);
      await user.page.reload();
      const { page } = user;
      await page.locator('#message-input').fill('hello');
      await page.keyboard.press('Enter');
      await page.locator('.turn:nth-child(1) .turn-meta').waitFor();
      // The first turn's stream is still open: Enter sends all the same, and that turn ends too.
      await page.locator('#message-input').fill('I want a human');
      await page.keyboard.press('Enter');
      await page.locator('.turn:nth-child(2) .turn-meta').waitFor({ timeout: 10_000 });
      expect(await page.locator('.turn:nth-child(2) .msg--agent .content').first().textContent()).toBe(
        HANDOFF_NOTICE,
      );
      expect(await page.locator('#message-input').inputValue()).toBe('');
      await streams.release(page);
      expect(user.errors).toEqual([]);
    } finally {
      await user.context.close();
    }
  }, 60_000);
});
