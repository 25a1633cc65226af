import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TreeAgent } from '@treeagent/core';
import { withExtraChunks } from '@treeagent/core/evaluation';
import { SqliteSessionStore } from '@treeagent/sqlite';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bikeShopTree } from '../../../examples/src/bike-shop/tree.js';
import { operatorDirectory } from './operators/operator-accounts.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { OPERATOR_PASSWORDS, testOperatorAccounts } from './test-support/operators.js';
import { WEB_DIRECTORY } from './web-directory.js';

/**
 * The Analytics and Review pages in Debian's Chromium, over real conversations of the bike shop
 * stored in SQLite by two versions of its tree across the last days. Takes docs/screenshots/
 * analytics.png and review.png with TREEAGENT_UPDATE_SCREENSHOTS=1.
 */
const SCREENSHOTS =
  process.env.TREEAGENT_UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : `${mkdtempSync(join(tmpdir(), 'treeagent-screenshots-'))}/`;
const UTTERANCES = fileURLToPath(new URL('../../../examples/src/bike-shop/utterances.tsv', import.meta.url));
const DAY = 24 * 60 * 60 * 1000;

describe('Analytics and Review pages (Chromium)', () => {
  let browser: Browser;
  let server: RunningServer;
  let dir: string;
  let sessionStore: SqliteSessionStore;
  let versions: [string, string];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'treeagent-analytics-page-'));
    sessionStore = new SqliteSessionStore(join(dir, 'data.db'));
    // Two versions of the tree: the second knows "parcheggio" (a chunk added to the greeting).
    const first = bikeShopTree();
    const greeting = [...first.nodes.values()].find((node) => node.name === 'saluto')!.id;
    const second = withExtraChunks(first, { chunks: { [greeting]: ['dove posso parcheggiare la bici?'] } });
    versions = [first.contentHash, second.contentHash];
    const lines = readFileSync(UTTERANCES, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split('\t')[0]!);
    const extra = [
      'dove posso parcheggiare?',
      "c'è un parcheggio vicino?",
      'che tempo fa domani?',
      'previsioni meteo per sabato',
    ];
    let clock = Date.now() - 6 * DAY;
    let session = 0;
    for (const [index, tree] of [first, second].entries()) {
      const agent = new TreeAgent({ tree, sessionStore, now: () => new Date(clock) });
      for (let i = 0; i < 14; i++) {
        const id = `conversation-${++session}`;
        for (const text of [
          lines[(i * 7 + index) % lines.length]!,
          extra[i % extra.length]!,
          lines[(i * 3 + 5) % lines.length]!,
        ]) {
          await agent.send(id, text).catch(() => {});
          clock += 7 * 60 * 1000;
        }
        clock += DAY / 5;
      }
    }
    server = await serve({
      agent: new TreeAgent({ tree: second, sessionStore }),
      hostname: '127.0.0.1',
      port: 0,
      web: { directory: WEB_DIRECTORY },
      logger: memoryLogger(),
      operators: { directory: operatorDirectory(await testOperatorAccounts()) },
      analytics: { treeFile: join(dir, 'tree.ts'), utterancesFile: join(dir, 'utterances.tsv') },
    });
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close({ timeoutMs: 1000 });
    await sessionStore?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  async function loggedIn(path: string): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({
      viewport: { width: 1360, height: 1100 },
      colorScheme: 'light',
    });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${server.url}${path}`);
    await page.waitForSelector('#operator-login');
    await page.fill('input[name=login]', 'bruno');
    await page.fill('input[name=password]', OPERATOR_PASSWORDS.bruno);
    await page.click('#operator-login button[type=submit]');
    return { page, errors };
  }

  it('asks for an operator login; shows the report, charts, ambiguous siblings and unmatched clusters', async () => {
    const { page, errors } = await loggedIn('/staff/analytics');
    // An operator's page does not ask for the environments (admins only: a 403 on every view).
    const asked: string[] = [];
    await page.waitForSelector('.report-card[data-figure="conversations"] dd');
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await page.reload();
    await page.waitForSelector('.report-card[data-figure="conversations"] dd');
    await page.waitForSelector('body.is-ready');
    const expected = await sessionStore.analytics().report();
    expect(await page.textContent('.report-card[data-figure="conversations"] dd')).toBe(
      String(expected.totals.conversations),
    );
    expect(await page.textContent('.report-card[data-figure="turns"] dd')).toBe(
      String(expected.totals.turns),
    );
    expect(await page.textContent('.report-card[data-figure="containment"] dd')).toBe(
      `${(expected.totals.containmentRate * 100).toFixed(1)}%`,
    );
    expect(expected.totals.conversations).toBe(28);
    // Each chart is drawn (and its canvas sized) in an effect after the page is ready: until then the
    // canvas has the browser's default 300×150.
    for (const id of ['chart-per-day', 'chart-failures', 'chart-traffic', 'chart-latency']) {
      const box = () => page.locator(`#${id} canvas`).boundingBox();
      await expect.poll(async () => (await box())!.width, { message: id }).toBeGreaterThan(200);
      await expect.poll(async () => (await box())!.height, { message: id }).toBeGreaterThan(150);
    }
    for (const name of ['from', 'to', 'version', 'compare'])
      expect(await page.locator(`#analytics-filter [name=${name}]`).count(), name).toBe(1);
    await page.waitForSelector('#unmatched-clusters .cluster');
    expect(await page.locator('#unmatched-clusters .cluster-nearest').first().textContent()).toMatch(
      /^Nearest to the centroid: .+\(0\.\d\d\)/,
    );
    const clusters = await page.locator('#unmatched-clusters .cluster').count();
    expect(clusters).toBeGreaterThan(0);
    // The summary line spans the grid's row, above the clusters (not a cell of its own beside them).
    const grid = (await page.locator('#unmatched-clusters').boundingBox())!;
    const summary = (await page.locator('#unmatched-clusters > .clusters-summary').boundingBox())!;
    expect(summary.width).toBeCloseTo(grid.width, 0);
    const card = (await page.locator('#unmatched-clusters .cluster').first().boundingBox())!;
    expect(card.y).toBeGreaterThanOrEqual(summary.y + summary.height);
    await page.screenshot({ path: `${SCREENSHOTS}analytics.png`, fullPage: true });

    // "Add to utterances" on the first cluster: appended to the utterance set, with its effect.
    const first = page.locator('#unmatched-clusters .cluster').first();
    await first.locator('select[aria-label="Label of the utterances"]').selectOption('none');
    await first.locator('button', { hasText: 'Add to utterances' }).click();
    await expect.poll(() => first.locator('.cluster-result').textContent()).toMatch(/Added \d+ utterances/);
    // The file by its name, not the server's absolute path.
    const result = (await first.locator('.cluster-result').textContent())!;
    expect(result).toContain('to utterances.tsv.');
    expect(result).not.toContain(dir);
    expect(readFileSync(join(dir, 'utterances.tsv'), 'utf8')).toMatch(/\tnone\n$/);
    expect(asked.filter((path) => path.startsWith('/api/v1/versions'))).toEqual([]);
    expect(asked.length).toBeGreaterThan(3);
    expect(errors).toEqual([]);
  }, 120_000);

  it('an invalid range shows its error without the previous figures; Compare waits for a version', async () => {
    const { page } = await loggedIn('/staff/analytics');
    await page.waitForSelector('.report-card');
    await page.waitForSelector('body.is-ready');
    expect(await page.locator('#analytics-filter [name=compare]').isDisabled()).toBe(true);
    await page.fill('#analytics-filter [name=from]', '2026-12-07');
    await page.fill('#analytics-filter [name=to]', '2026-12-01');
    await page.locator('#analytics-filter button[type=submit]').click();
    await page.locator('.notice--error').waitFor();
    expect(await page.locator('.report-card').count()).toBe(0);
    // Nor the previous filter's unmatched clusters, whose "Add to utterances" still worked.
    expect(await page.locator('#unmatched-clusters .cluster').count()).toBe(0);
    await page.locator('#analytics-filter [name=version]').selectOption(versions[0]!);
    expect(await page.locator('#analytics-filter [name=compare]').isDisabled()).toBe(false);
  }, 120_000);

  it('compares two tree versions side by side', async () => {
    const { page, errors } = await loggedIn(`/staff/analytics?version=${versions[0]}&compare=${versions[1]}`);
    await page.waitForSelector('.report-compare');
    await page.waitForSelector('body.is-ready');
    const [a, b] = await Promise.all(
      versions.map((treeVersion) => sessionStore.analytics().report({ treeVersion })),
    );
    const turns = await page.locator('.report-card[data-figure="turns"] dd').allTextContents();
    expect(turns).toEqual([String(a!.totals.turns), String(b!.totals.turns)]);
    await page.screenshot({ path: `${SCREENSHOTS}analytics-compare.png`, fullPage: true });
    expect(errors).toEqual([]);
  }, 120_000);

  it('review: search, read a transcript with its decisions, label a turn', async () => {
    const { page, errors } = await loggedIn('/staff/review');
    await page.waitForSelector('#conversation-list li');
    // The same filter bar as the Analytics page: range and version, then the page's own fields.
    for (const name of ['from', 'to', 'version', 'text', 'status', 'node'])
      expect(await page.locator(`#review-filter [name=${name}]`).count(), name).toBe(1);
    await page.fill('#review-filter input[name=text]', 'parcheggiare');
    await page.click('#review-filter button[type=submit]');
    await expect.poll(() => page.locator('#conversation-list .conversation-item').count()).toBeLessThan(28);
    await page.locator('#conversation-list .conversation-item').first().click();
    await page.waitForSelector('#transcript .turn-facts');
    expect(await page.locator('#transcript .decisions').count()).toBeGreaterThan(0);
    const sessionId = (await page.getAttribute('#transcript', 'aria-label'))!.replace('Conversation ', '');
    await page.locator('#transcript select[aria-label="Label of turn 2"]').first().selectOption('saluto');
    await expect
      .poll(async () =>
        (await sessionStore.analytics().labels()).map((label) => [label.sessionId, label.turn, label.label]),
      )
      .toContainEqual([sessionId, 2, 'saluto']);
    await page.screenshot({ path: `${SCREENSHOTS}review.png`, fullPage: true });
    expect(errors).toEqual([]);
    // An invalid range: its error without the previous search's conversations and transcript.
    await page.fill('#review-filter [name=from]', '2026-12-07');
    await page.fill('#review-filter [name=to]', '2026-12-01');
    await page.click('#review-filter button[type=submit]');
    await page.locator('.notice--error').waitFor();
    expect(await page.locator('#conversation-list .conversation-item').count()).toBe(0);
    expect(await page.locator('#transcript').count()).toBe(0);
  }, 120_000);

  it('review on a phone: the transcript a tap opens comes into view', async () => {
    const { page } = await loggedIn('/staff/review');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForSelector('#conversation-list .conversation-item');
    await page.locator('#conversation-list .conversation-item').first().click();
    await page.waitForSelector('#transcript .turn-facts');
    // It used to render below the list, out of sight, as if the tap did nothing.
    await expect
      .poll(() =>
        page.evaluate(
          `document.getElementById('transcript').getBoundingClientRect().top < window.innerHeight`,
        ),
      )
      .toBe(true);
  }, 120_000);
});
