import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InMemoryAuditLog } from '@treeagent/core/adapter';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorDirectory } from './operators/operator-accounts.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { handoffAgent } from './test-support/handoff.js';
import { overflowing } from './test-support/layout.js';
import { openOperatorConsole } from './test-support/operator-console.js';
import { testOperatorsInTeams } from './test-support/operators.js';
import { seedConversations } from './test-support/staff-pages.js';
import { WEB_DIRECTORY } from './web-directory.js';

const SCREENSHOTS =
  process.env.TREEAGENT_UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : `${mkdtempSync(join(tmpdir(), 'treeagent-screenshots-'))}/`;

const NOTE = 'A fleet order: 40 bikes, wants an invoice per bike';

/**
 * The console's Transfer button in Chromium, with two operators of different teams (Bruno: support,
 * on a 390 px phone; Carla: billing, on a desktop): Bruno claims a support conversation and passes it
 * to the billing team with a note, by keyboard alone; it leaves his hands (his view returns to the
 * queue, the conversation waits in billing), Carla sees it with the note, and the audit records it.
 * Screenshots in docs/screenshots/console-transfer*.png.
 */
describe('transfer from the console (Chromium)', () => {
  let browser: Browser;
  let server: RunningServer;
  const auditLog = new InMemoryAuditLog();

  beforeAll(async () => {
    const accounts = await testOperatorsInTeams({ bruno: ['support'], carla: ['billing'] });
    server = await serve({
      agent: handoffAgent(),
      port: 0,
      web: { directory: WEB_DIRECTORY },
      logger: memoryLogger(),
      operators: { directory: operatorDirectory(accounts), auditLog },
      handoff: { streamPollMs: 500 },
    });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close({ timeoutMs: 1000 });
  });

  const focused = (page: Page) => page.evaluate<string>("document.activeElement?.id ?? ''");

  it('Bruno passes a conversation to the billing team with a note; Carla sees it with the note; audited', async () => {
    const carla = await openOperatorConsole(browser, server.url, 'carla', { width: 1280, height: 900 });
    const bruno = await openOperatorConsole(browser, server.url, 'bruno', { width: 390, height: 844 });
    try {
      await seedConversations(server.url, [['I want a human']]);
      const item = bruno.page.locator('.queue-item').first();
      await item.waitFor();
      const sessionId = (await item.getAttribute('data-session-id'))!;
      await item.click();
      // The open conversation is in the address: a reload opens it again.
      await expect.poll(() => new URL(bruno.page.url()).searchParams.get('session')).toBe(sessionId);
      await bruno.page.reload();
      await bruno.page.locator('#claim').click();
      await expect.poll(() => bruno.page.locator('#session-holder').textContent()).toBe('Claimed by you');

      // By keyboard: Enter opens the dialog on its list of targets; Escape closes it, back on the button.
      await bruno.page.locator('#transfer').focus();
      await bruno.page.keyboard.press('Enter');
      await bruno.page.locator('#transfer-dialog').waitFor();
      await expect.poll(() => focused(bruno.page)).toBe('transfer-target');
      await bruno.page.keyboard.press('Escape');
      await expect.poll(() => bruno.page.locator('#transfer-dialog').count()).toBe(0);
      expect(await focused(bruno.page)).toBe('transfer');

      await bruno.page.keyboard.press('Enter');
      await bruno.page.locator('#transfer-dialog').waitFor();
      // The other team and the other operator online; not Bruno's own team, not Bruno.
      expect(await bruno.page.locator('#transfer-target option').allTextContents()).toEqual([
        'billing team',
        'Carla Verdi',
      ]);
      expect(await bruno.page.locator('#transfer-target').inputValue()).toBe('team:billing');
      expect(await bruno.page.locator('#transfer-summary').textContent()).toBe(
        "The conversation waits in the billing team's queue; you no longer hold it.",
      );
      await bruno.page.keyboard.press('Tab');
      expect(await focused(bruno.page)).toBe('transfer-note');
      await bruno.page.keyboard.type(NOTE);
      // At 390 px the dialog is whole on screen and nothing scrolls sideways.
      const box = (await bruno.page.locator('#transfer-dialog').boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(box.y + box.height).toBeLessThanOrEqual(844);
      expect(await overflowing(bruno.page)).toEqual([]);
      await bruno.page.screenshot({ path: `${SCREENSHOTS}console-transfer-phone.png` });
      await bruno.page.keyboard.press('Tab'); // Cancel
      await bruno.page.keyboard.press('Tab'); // Transfer
      expect(await focused(bruno.page)).toBe('transfer-send');
      await bruno.page.keyboard.press('Enter');

      // It leaves Bruno: his view is the queue again, and billing is not his team.
      await expect.poll(() => bruno.page.locator('#transfer-dialog').count()).toBe(0);
      await expect
        .poll(() => bruno.page.locator('#console-session:not(.console-placeholder)').count())
        .toBe(0);
      const brunoItem = bruno.page.locator(`.queue-item[data-session-id="${sessionId}"]`);
      // Billing is not Bruno's team: it leaves his queue.
      await expect.poll(() => brunoItem.count()).toBe(0);

      // Carla (billing) sees it waiting in her team, and the note in the conversation.
      const carlaItem = carla.page.locator(`.queue-item[data-session-id="${sessionId}"]`);
      await expect.poll(() => carlaItem.locator('.queue-chip').first().textContent()).toBe('billing');
      await carlaItem.click();
      // On a desktop the conversation sits beside the queue: no "Back to the queue" button.
      await carla.page.locator('#console-session:not(.console-placeholder)').waitFor();
      expect(await carla.page.locator('#back-to-queue').isVisible()).toBe(false);
      await expect.poll(() => carla.page.locator('#notes').textContent()).toContain(NOTE);
      expect(await carla.page.locator('#notes').textContent()).toContain('Bruno Bianchi');
      await carla.page.screenshot({ path: `${SCREENSHOTS}console-transfer-note.png` });
      // The top bar's Console link goes to the queue, and the address says so; Back opens the
      // conversation again.
      expect(new URL(carla.page.url()).searchParams.get('session')).toBe(sessionId);
      await carla.page.locator('.page-nav a[href="/staff/console"]').click();
      await expect
        .poll(() => carla.page.locator('#console-session:not(.console-placeholder)').count())
        .toBe(0);
      expect(new URL(carla.page.url()).search).toBe('');
      await carla.page.goBack();
      await carla.page.locator('#console-session:not(.console-placeholder)').waitFor();
      expect(new URL(carla.page.url()).searchParams.get('session')).toBe(sessionId);

      // The audit records who passed which session where — not the note's text.
      const transfers = (await auditLog.list()).filter((entry) => entry.action === 'handoff.transfer');
      expect(transfers.map((entry) => [entry.actorId, entry.sessionId, entry.detail])).toEqual([
        ['bruno', sessionId, { queue: 'support', team: 'billing' }],
      ]);
      expect(JSON.stringify(transfers)).not.toContain('fleet order');
      expect(bruno.errors).toEqual([]);
      expect(carla.errors).toEqual([]);
    } finally {
      await bruno.context.close();
      await carla.context.close();
    }
  }, 120_000);
});
