import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from './test-support/browser.js';
import { HANDOFF_NOTICE } from './test-support/handoff.js';
import { OPERATOR_PASSWORDS, testOperatorAccounts } from './test-support/operators.js';
import {
  requirePostgres,
  type ServerProcess,
  startServerProcess,
  TEST_DATABASE_URL,
  testSchema,
} from './test-support/server-process.js';

/**
 * Human handoff end to end in Chromium, with two browser contexts (a user and an operator, each
 * with its own cookies and storage): the user asks for a human, the operator claims and replies,
 * the user sees the reply live without sending anything, the operator hands back, the agent answers
 * the next message. On SQLite (one server process) and on PostgreSQL with the user and the operator
 * on two different server processes (events through LISTEN/NOTIFY). Takes the console screenshots
 * of docs/handoff.md (into docs/screenshots/ with TREEAGENT_UPDATE_SCREENSHOTS=1).
 */

const SCRIPT = fileURLToPath(new URL('./test-support/handoff-server-process.ts', import.meta.url));
const SCREENSHOTS =
  process.env.TREEAGENT_UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : `${mkdtempSync(join(tmpdir(), 'treeagent-screenshots-'))}/`;

async function say(page: Page, text: string) {
  const turns = await page.locator('.turn').count();
  await page.locator('#message-input').fill(text);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`.turn:nth-child(${turns + 1}) .turn-meta`).catch(async (error: Error) => {
    // How far the turn got on the page (a turn that never ends says nothing itself).
    const log = await page
      .locator('#log')
      .textContent({ timeout: 1000 })
      .catch(() => '(no log)');
    error.message += `\nthe conversation on the page:\n${log}`;
    throw error;
  });
}

describe('human handoff in the browser (Chromium)', () => {
  let browser: Browser;
  let env: Record<string, string>;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    env = { TREEAGENT_TEST_OPERATORS: JSON.stringify({ operators: await testOperatorAccounts() }) };
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await browser?.close();
  }, 60_000);

  async function start(args: string[]): Promise<ServerProcess> {
    const server = await startServerProcess(args, { script: SCRIPT, env, timeoutMs: 60_000 });
    cleanups.push(async () => {
      await server.stop();
    });
    return server;
  }

  async function scenario(userUrl: string, operatorUrl: string, screenshots: boolean, liveMs: number) {
    const user = await openPage(browser, `${userUrl}/`);
    // A help desk's laptop: 1280 px wide (the tablet width is checked below).
    const desk = await openPage(browser, `${operatorUrl}/staff/console`, { width: 1280, height: 860 });
    cleanups.push(() => user.context.close());
    cleanups.push(() => desk.context.close());
    const { page } = user;
    const console = desk.page;

    await say(page, 'hello');
    expect(await page.locator('.turn:nth-child(1) .msg--agent .content').textContent()).toBe(
      'Hi! How can I help?',
    );
    await say(page, 'I want to talk to a human');
    expect(await page.locator('.turn:nth-child(2) .msg--agent .content').textContent()).toBe(HANDOFF_NOTICE);
    await expect
      .poll(() => page.locator('#handoff-status').textContent(), { timeout: liveMs })
      .toBe('Waiting for an operator…');
    // The customer reads that a person takes over, not why (the reason is for the operators).
    await expect
      .poll(() => page.locator('.handoff-row').first().textContent(), { timeout: liveMs })
      .toBe('The conversation was handed to a person.');

    // The operator logs in (their own credentials) and finds the session in the queue.
    await console.locator('#operator-login-name').fill('bruno');
    await console.locator('#operator-password').fill(OPERATOR_PASSWORDS.bruno);
    await console.locator('#operator-login button[type=submit]').click();
    const item = console.locator('.queue-item').first();
    await item.waitFor({ timeout: liveMs });
    expect(await item.locator('.queue-reason').textContent()).toBe('asked for a person');
    expect(await item.locator('.queue-last').textContent()).toBe('“I want to talk to a human”');
    await item.click();

    // A second operator watches the same queue: Bruno's claim reaches Carla's console live.
    const colleague = await openPage(browser, `${operatorUrl}/staff/console`);
    cleanups.push(() => colleague.context.close());
    const carla = colleague.page;
    await carla.locator('#operator-login-name').fill('carla');
    await carla.locator('#operator-password').fill(OPERATOR_PASSWORDS.carla);
    await carla.locator('#operator-login button[type=submit]').click();
    await carla.locator('.queue-item').first().click();
    await carla.locator('#claim').waitFor();

    await console.locator('#claim').click();
    await expect.poll(() => console.locator('#session-holder').textContent()).toBe('Claimed by you');
    await expect
      .poll(() => carla.locator('#session-holder').textContent(), { timeout: liveMs })
      .toBe('Claimed by Bruno Bianchi');
    await expect
      .poll(() => carla.locator('.queue-item .queue-status').first().textContent(), { timeout: liveMs })
      .toBe('Claimed by Bruno Bianchi');
    expect(await carla.locator('#claim').count()).toBe(0);
    expect(await carla.locator('#reply-input').isDisabled()).toBe(true);
    // It says who writes, not "Claim the session" with no Claim button to press.
    expect(await carla.locator('#reply-input').getAttribute('placeholder')).toBe(
      'Bruno Bianchi holds this conversation: only they write to the user.',
    );

    // The per-turn debug view: the agent's turn with its decisions, the turn that handed off.
    const firstTurn = console.locator('.t-debug[data-turn="1"]');
    await firstTurn.locator('summary').click();
    expect(await firstTurn.locator('.turn-status').textContent()).toBe('answered');
    const decisions = firstTurn.locator('.decisions tbody tr');
    expect(await decisions.count()).toBeGreaterThan(0);
    const cells = await decisions.first().locator('td').allTextContents();
    expect(cells[2]).toMatch(/^\d\.\d{3}$/); // similarity
    expect(cells[3]).toMatch(/^\d\.\d{3}$/); // threshold
    expect(await console.locator('.t-debug[data-turn="2"] .t-debug-status').textContent()).toBe('handed-off');
    await expect
      .poll(() => page.locator('#handoff-status').textContent(), { timeout: liveMs })
      .toBe('Bruno Bianchi is answering you.');

    // The reply box stops at the server's limit (it used to take more and show the API's refusal).
    expect(await console.locator('#reply-input').getAttribute('maxlength')).toBe('10000');
    // Typing, then the reply: the user sees both without sending anything.
    await console.locator('#reply-input').fill('Ciao, sono Bruno: quale ordine?');
    await console.locator('#reply-input').dispatchEvent('input');
    await page.locator('#operator-typing').waitFor({ timeout: liveMs });
    await console.locator('#reply-options').fill('#1001, #1002');
    await console.locator('#reply-file').setInputFiles({
      name: 'ricevuta.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Rimborso approvato per #1002'),
    });
    if (screenshots) await console.screenshot({ path: `${SCREENSHOTS}console-claimed.png` });
    await console.locator('#reply-send').click();
    const reply = page.locator('.msg--operator .content');
    await reply.waitFor({ timeout: liveMs });
    expect(await reply.textContent()).toBe('Ciao, sono Bruno: quale ordine?');
    expect(await page.locator('.msg--operator .operator-author').textContent()).toBe('Bruno Bianchi');
    expect(await page.locator('.msg--operator .options button').allTextContents()).toEqual([
      '#1001',
      '#1002',
    ]);
    // The file came with the reply, and the user downloads it with their session's token.
    const chip = page.locator('.msg--operator .file-chip');
    expect(await chip.getAttribute('aria-label')).toMatch(/^ricevuta\.txt/);
    const [download] = await Promise.all([page.waitForEvent('download'), chip.click()]);
    expect(download.suggestedFilename()).toBe('ricevuta.txt');
    const saved = await download.path();
    expect(readFileSync(saved, 'utf8')).toBe('Rimborso approvato per #1002');
    await expect
      .poll(() => console.locator('.t-entry--operator .t-files a').allTextContents())
      .toEqual(['ricevuta.txt']);

    // The user types: the operator sees it live; then answers by picking an option.
    await page.locator('#message-input').fill('uno');
    await page.locator('#message-input').dispatchEvent('input');
    await expect
      .poll(() => console.locator('#user-typing').textContent(), { timeout: liveMs })
      .toBe('The user is typing…');
    await page.locator('#message-input').fill('');
    await page.locator('#message-input').dispatchEvent('input');
    await expect.poll(() => console.locator('#user-typing').textContent(), { timeout: liveMs }).toBe('');
    await page.locator('.msg--operator .options button', { hasText: '#1002' }).click();
    await console.locator('.t-entry--user', { hasText: '#1002' }).waitFor({ timeout: liveMs });
    await console.locator('#note-input').fill('Order #1002 was late: refund approved.');
    await console.locator('#note-add').click();
    await console.locator('#notes li').first().waitFor();
    await console.locator('.t-debug[data-turn="1"]').scrollIntoViewIfNeeded();
    if (screenshots) await console.screenshot({ path: `${SCREENSHOTS}console-conversation.png` });
    // A tracking URL from the user and a long unbroken note wrap where they are: they used to spill
    // out of the bubble and widen the queue, the notes and (on a phone) the whole page.
    const url = `https://tracking.example.com/parcel?id=${'A1B2C3D4E5'.repeat(18)}`;
    await page.locator('#message-input').fill(url);
    await page.locator('#message-input').press('Enter');
    await console.locator('.t-entry--user', { hasText: 'tracking.example.com' }).waitFor({ timeout: liveMs });
    await console.locator('#note-input').fill('x'.repeat(600));
    await console.locator('#note-add').click();
    await expect.poll(() => console.locator('#notes li').count()).toBe(2);
    const spills = () =>
      console.evaluate(`[...document.querySelectorAll('.t-entry, .queue-item, #notes li')]
        .filter((element) => element.scrollWidth > element.clientWidth + 1).length`);
    expect(await spills()).toBe(0);
    // At a tablet's width the console still fits: nothing scrolls sideways; nor on a phone.
    await console.setViewportSize({ width: 390, height: 844 });
    expect(await console.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await console.setViewportSize({ width: 820, height: 1180 });
    expect(await console.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    expect(await spills()).toBe(0);
    expect(await console.locator('#reply-send').isVisible()).toBe(true);
    if (screenshots) await console.screenshot({ path: `${SCREENSHOTS}console-tablet.png` });
    await console.setViewportSize({ width: 1280, height: 860 });

    // Hand back to the assistant's default; the agent answers the next message.
    await console.locator('#hand-back').click();
    await expect
      .poll(() => console.locator('#session-holder').textContent())
      .toBe('Closed: the assistant has this session.');
    await page.locator('#handoff-bar').waitFor({ state: 'detached', timeout: liveMs });
    await say(page, 'hello');
    expect(
      await page.locator('.turn:last-child .msg--agent:not(.msg--operator) .content').last().textContent(),
    ).toBe('Hi! How can I help?');
    await expect.poll(() => console.locator('.queue-item').count(), { timeout: liveMs }).toBe(0);
    expect(user.errors).toEqual([]);
    expect(desk.errors).toEqual([]);
    expect(colleague.errors).toEqual([]);
  }

  it('on SQLite: one server process, user and operator in two browser contexts', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-desk-'));
    cleanups.push(async () => rmSync(directory, { recursive: true, force: true }));
    const server = await start(['sqlite', directory]);
    await scenario(server.url, server.url, true, 10_000);
  }, 120_000);

  it('on PostgreSQL: the user on one server process, the operator on another', async () => {
    await requirePostgres();
    const { schema, drop } = testSchema('desk');
    cleanups.push(drop);
    const [first, second] = await Promise.all([
      start(['postgres', TEST_DATABASE_URL, schema]),
      start(['postgres', TEST_DATABASE_URL, schema]),
    ]);
    expect(first.url).not.toBe(second.url);
    // Live updates must cross processes through the bus: well under the streams' 15 s re-read.
    await scenario(first.url, second.url, false, 5000).catch((error: Error) => {
      // What the servers said, with the failure (a step that never finishes says nothing itself).
      error.message += `\nthe user's server, stderr:\n${first.stderr()}\nthe operator's server, stderr:\n${second.stderr()}`;
      throw error;
    });
  }, 120_000);
});
