import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { defineTree, type NodeDefinition, TreeAgent } from '@treeagent/core';
import type { ModelRequest, ModelStreamPart } from '@treeagent/core/adapter';
import { ExactEmbedder, ScriptedLanguageModel } from '@treeagent/core/test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bikeShopTree } from '../../../examples/src/bike-shop/tree.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium } from './test-support/browser.js';
import { memoryLogger } from './test-support/fixtures.js';
import { WEB_DIRECTORY } from './web-directory.js';

/**
 * The web app (packages/server/web, built into dist/web by the global setup
 * scripts/build-web-if-stale.ts) in a real browser: Debian's Chromium driven by playwright-core,
 * against servers started with `serve()`. Takes the screenshots of the docs: into
 * docs/screenshots/ with TREEAGENT_UPDATE_SCREENSHOTS=1, else into a temporary directory (a test
 * run leaves the checkout unchanged).
 */

const SCREENSHOTS =
  process.env.TREEAGENT_UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : `${mkdtempSync(join(tmpdir(), 'treeagent-screenshots-'))}/`;
const VIEWPORT = { width: 1360, height: 860 };

const ANSWER =
  'La spedizione costa 7,90 € ed è gratuita per gli ordini sopra i 99 €. Consegniamo in 2-4 giorni lavorativi in Italia con corriere espresso.';

/**
 * The scripted model (a mock) of the bike shop: it checks (JSON), rewrites (gives the message back)
 * and answers; its streamed answers come word by word, and `hold()` pauses one mid-stream.
 */
class PacedModel extends ScriptedLanguageModel {
  #hold: Promise<void> | null = null;

  constructor() {
    super({
      answers: (request) => {
        if (request.responseFormat) return JSON.stringify({ answerable: true });
        // The order status: call the orderStatus tool, then answer from its result.
        if (request.tools?.length && request.toolChoice !== 'none') {
          const last = request.messages.at(-1)!;
          if (last.role !== 'tool') {
            const number = /numero (\d+)/.exec(String(last.content))?.[1] ?? '0';
            return { toolCalls: [{ toolName: 'orderStatus', input: { orderNumber: number } }] };
          }
          const [result] = last.content as { output: { carrier: string } }[];
          return `Il tuo ordine viaggia con ${result!.output.carrier}.`;
        }
        if (request.system?.startsWith('Rewrite')) {
          const prompt = request.messages.at(-1)?.content;
          const last = typeof prompt === 'string' ? /Last user message: ([\s\S]*)$/.exec(prompt) : null;
          return last ? last[1]!.trim() : '';
        }
        return ANSWER;
      },
    });
  }

  /** The next streamed answer stops after three words until the returned function is called. */
  hold(): () => void {
    let release!: () => void;
    this.#hold = new Promise((resolve) => {
      release = resolve;
    });
    return () => {
      this.#hold = null;
      release();
    };
  }

  override async *stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    let words = 0;
    for await (const part of super.stream(request)) {
      if (part.type === 'text-delta') {
        words++;
        if (words === 4 && this.#hold) await this.#hold;
        await new Promise((resolve) => setTimeout(resolve, 8));
      }
      yield part;
    }
  }
}

/** A valid PNG (RGB, a diagonal gradient), to upload and to send back as a dynamic attachment. */
function png(width: number, height: number, tint: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const shade = (x + y) / (width + height);
      for (let channel = 0; channel < 3; channel++) {
        rows[row + 1 + x * 3 + channel] = Math.round(255 - (255 - tint[channel]!) * shade);
      }
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const CHART = png(180, 90, [79, 70, 229]);
const REPORT = 'Monthly report\nOrders: 42\nReturns: 3\n';

/** A small tree for what the bike shop does not do: files, no-match, errors. */
function labNodes(): NodeDefinition[] {
  return [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true, name: 'lab' },
    {
      id: 3,
      type: 'emit',
      parent: 2,
      name: 'receipt',
      chunks: ['receipt'],
      emit: async (_self, context) => {
        const received = context.fileAgent.attachments.map((file) => `${file.name} (${file.size} bytes)`);
        const chart = await context.fileAgent.create({
          name: 'chart.png',
          mimeType: 'image/png',
          data: CHART,
        });
        const report = await context.fileAgent.create({
          name: 'report.txt',
          mimeType: 'text/plain',
          data: REPORT,
        });
        const summary = await context.fileAgent.create({
          name: 'summary.csv',
          mimeType: 'text/csv',
          data: 'month,orders\njan,42\n',
        });
        return {
          message: {
            type: 'static',
            content: `Received: ${received.join(', ') || 'no file'}.\nHere is the chart: {{chart.png}}\nThe full report is {{report.txt}}; {{missing.pdf}} stays as text.`,
          },
          dynamicAttachments: [chart, report],
          attachments: [summary],
        };
      },
    },
    {
      id: 4,
      type: 'emit',
      parent: 2,
      name: 'ask order number',
      chunks: ['order status'],
      emit: { message: { type: 'static', content: 'What is your order number?' }, waitInteraction: true },
    },
    {
      id: 5,
      type: 'emit',
      parent: 2,
      name: 'broken',
      chunks: ['fail'],
      emit: () => {
        throw new Error('the database is down');
      },
    },
  ];
}

function labAgent(): TreeAgent {
  return new TreeAgent({
    tree: defineTree({ name: 'lab', nodes: labNodes() }),
    embedder: new ExactEmbedder({
      vectors: { receipt: [1, 0, 0], 'order status': [0, 1, 0], fail: [0, 0, 1] },
    }),
  });
}

// A missing browser is a failure, not a skip: scripts/test-all.sh installs Debian's Chromium.
describe('web chat page (Chromium)', () => {
  let browser: Browser;
  let bikeShop: RunningServer;
  let lab: RunningServer;
  const model = new PacedModel();
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const web = { directory: WEB_DIRECTORY };
    bikeShop = await serve({
      agent: new TreeAgent({ tree: bikeShopTree({ generative: true }), models: model }),
      hostname: '127.0.0.1',
      port: 0,
      debug: true,
      web,
      logger: memoryLogger(),
    });
    lab = await serve({ agent: labAgent(), hostname: '127.0.0.1', port: 0, web, logger: memoryLogger() });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await bikeShop?.close({ timeoutMs: 1000 });
    await lab?.close({ timeoutMs: 1000 });
  }, 60_000);

  /** A fresh page (its own sessionStorage) that fails the test on page errors. */
  async function open(url: string): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({
      viewport: VIEWPORT,
      acceptDownloads: true,
      colorScheme: 'light',
    });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().includes('status of 4')) errors.push(message.text());
    });
    await page.goto(url);
    await page.waitForSelector('body.is-ready');
    return { page, errors };
  }

  async function say(page: Page, text: string) {
    const turns = await page.locator('.turn').count();
    await page.locator('#message-input').fill(text);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`.turn:nth-child(${turns + 1}) .turn-meta`);
  }

  const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();

  it('chats with the bike shop: streamed text, options, sources, warnings, waitInteraction; debug panel and tree view', async () => {
    const { page, errors } = await open(bikeShop.url);

    // Debug mode is detected; the header names the tree.
    expect(await page.locator('#tree-name').textContent()).toBe('bike-shop-generative');
    expect(await page.locator('#debug-badge').isVisible()).toBe(true);
    expect(await page.locator('#toggle-debug').isVisible()).toBe(true);
    const stored = JSON.parse(String(await page.evaluate("sessionStorage.getItem('treeagent.session')")));
    expect(stored).toMatchObject({ sessionId: expect.any(String), token: expect.any(String) });

    // A static answer with options.
    await say(page, 'ciao');
    expect(await page.locator('.msg--user .content').first().textContent()).toBe('ciao');
    expect(await page.locator('.msg--agent .content').first().textContent()).toBe(
      "Ciao! Sono l'assistente di Ciclofficina Rossi. Come posso aiutarti?",
    );
    expect(await texts(page, '.turn:nth-child(1) .options button')).toEqual([
      'Spedizioni',
      'Resi e rimborsi',
      "Dov'è il mio ordine?",
    ]);

    // Clicking an option sends it; the generated answer streams in.
    const release = model.hold();
    await page.locator('.options button', { hasText: 'Spedizioni' }).click();
    const streaming = page.locator('.turn:nth-child(2) .msg--agent.is-streaming .content');
    await streaming.waitFor();
    await expect.poll(() => streaming.textContent()).toBe('La spedizione costa ');
    expect(await page.locator('.turn:nth-child(2) .msg--agent').getAttribute('aria-busy')).toBe('true');
    expect(await page.locator('#stop-button').isVisible()).toBe(true);
    release();
    await page.waitForSelector('.turn:nth-child(2) .turn-meta');
    expect(await page.locator('.turn:nth-child(2) .msg--agent .content').textContent()).toBe(ANSWER);
    expect(await page.locator('.turn:nth-child(2) .msg--agent.is-streaming').count()).toBe(0);
    expect(await page.locator('.turn:nth-child(2) .msg--user').getAttribute('data-selected-option')).toBe(
      'Spedizioni',
    );
    // The options of the first message are used up; the chosen one stays marked.
    expect(await page.locator('.turn:nth-child(1) .options button:disabled').count()).toBe(3);
    expect(await texts(page, '.turn:nth-child(1) .option.is-selected')).toEqual(['Spedizioni']);

    // Sources, collapsed under the message.
    const sources = page.locator('.turn:nth-child(2) details.sources');
    expect(await sources.locator('summary').textContent()).toMatch(/^Sources \(\d\)$/);
    expect(await sources.getAttribute('open')).toBeNull();
    await sources.locator('summary').click();
    expect(await sources.locator('.source-title').first().textContent()).toBe('Costi di spedizione');
    // A source with a URL is a link to it (opened apart, without the opener).
    const link = sources.locator('a.source-link').first();
    expect(await link.getAttribute('href')).toBe('https://ciclofficina-rossi.example/spedizioni#costi');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');

    // A guardrail warning.
    await say(page, 'sei un idiota');
    const warning = page.locator('.turn:nth-child(3) .msg--warning');
    expect(await warning.locator('.msg-author').textContent()).toBe('Warning');
    expect(await warning.locator('.content').textContent()).toContain('linguaggio rispettoso');

    // A message that waits for the user's answer: input focused, hint shown.
    await say(page, "dov'è il mio ordine");
    expect(await page.locator('.turn:nth-child(4) .msg--agent .content').textContent()).toBe(
      "Mi dici il numero d'ordine? Lo trovi nella mail di conferma.",
    );
    expect(await page.locator('#composer').getAttribute('class')).toContain('is-waiting');
    expect(await page.locator('#composer-hint').textContent()).toContain('waiting for your answer');
    expect(await page.evaluate('document.activeElement?.id')).toBe('message-input');
    expect(await page.locator('#message-input').getAttribute('placeholder')).toBe('Your answer…');
    // A taller window for the screenshot, so that the whole conversation shows.
    await page.setViewportSize({ width: VIEWPORT.width, height: 1060 });
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${SCREENSHOTS}chat.png` });
    await page.setViewportSize(VIEWPORT);

    // The debug panel of the generated turn: path, decisions, callbacks, models, state, timings.
    await page.locator('.turn:nth-child(2) .turn-meta .inspect').click();
    const panel = page.locator('#panel-debug');
    await panel.waitFor();
    expect(await page.locator('#tab-debug').getAttribute('aria-selected')).toBe('true');
    expect(await panel.locator('.debug-title').textContent()).toBe('Turn 2');
    expect(await panel.locator('.status-badge').textContent()).toBe('answered');
    const decisions = panel.locator('.decision');
    expect(await decisions.count()).toBeGreaterThanOrEqual(3);
    expect(await texts(page, '#panel-debug .decision .action-badge')).toContain('descend');
    expect(await panel.locator('.decision.action-descend .chunk-text').first().textContent()).toBeTruthy();
    expect(await panel.locator('.decision.action-descend .score-text').first().textContent()).toMatch(
      /^\d\.\d{3} > \d\.\d{3}$/, // thresholds are calibrated at load: any value
    );
    expect(await panel.locator('.decision.is-stop .decision-why').allTextContents()).toContain(
      'no chunk in its subtree to compare: exploration stops here',
    );
    expect(await panel.locator('.path-end').first().textContent()).toContain('Explore stopped at');
    const callbacks = await texts(page, '#panel-debug .callbacks-table td:nth-child(2)');
    expect(callbacks).toEqual(
      expect.arrayContaining(['beforeRun', 'query', 'after', 'prompt', 'emit', 'afterRun']),
    );
    expect(await texts(page, '#panel-debug .models-table td:nth-child(3)')).toEqual(
      expect.arrayContaining(['extend-message', 'llm', 'emit']),
    );
    expect(await panel.locator('.steps-table tbody tr').count()).toBeGreaterThan(5);
    expect(await panel.locator('.timings').textContent()).toContain('model calls');
    const state = panel.locator('[data-section="state"]');
    expect(await state.locator('.source-note').textContent()).toContain('serverMetadata.sessionState');
    expect(await panel.locator('[data-section="metadata"] .json').textContent()).toContain('"sessionState"');
    await page.screenshot({ path: `${SCREENSHOTS}debug.png` });

    // Another turn through the select; the warning turn went to the guardrail.
    await page.locator('#turn-select').selectOption({ label: 'Turn 3 — sei un idiota' });
    expect(await panel.locator('.debug-title').textContent()).toBe('Turn 3');
    expect(await panel.locator('.path-end .node-ref').last().textContent()).toBe('linguaggio offensivo #60');
    await page.locator('#turn-select').selectOption({ index: 1 });

    // A node of the path opens the tree view on it.
    await panel.locator('.path-end .node-ref').first().click();
    expect(await page.locator('#tab-tree').getAttribute('aria-selected')).toBe('true');
    const tree = page.locator('#panel-tree');
    expect(await tree.locator('.node-details .details-title').textContent()).toContain('#202');

    // The tree: nested, components framed and labelled, the path and the current node highlighted.
    expect(await tree.locator('.tree-item').count()).toBe(25); // 18, and the repair booking's seven nodes (with its llm extraction in generative mode)
    expect(await texts(page, '#panel-tree .component-entry > .component-label')).toEqual([
      'component 20 · spedizioni',
      'component 30 · resi',
      'component 50 · riparazione',
    ]);
    const onPath = await tree
      .locator('.tree-item.on-path')
      .evaluateAll((items) => items.map((item: any) => Number(item.dataset.nodeId)));
    expect(onPath).toEqual(expect.arrayContaining([2, 15, 202, 204, 203]));
    expect(await tree.locator('.tree-item.is-current').getAttribute('data-node-id')).toBe('41');
    expect(await page.locator('#legend-path').textContent()).toBe('path of turn 2');
    expect(
      await tree.locator('.tree-item[data-node-id="202"] > ul .tree-item[data-node-id="204"]').count(),
    ).toBe(1);

    // Clicking a node shows its properties and chunks (texts, since the server runs in debug).
    await tree.locator('.tree-item[data-node-id="202"] > .tree-row').click();
    const details = tree.locator('.node-details');
    expect(await details.getAttribute('data-node-id')).toBe('202');
    expect(await details.locator('dd').allTextContents()).toEqual(
      expect.arrayContaining(['component 20 · spedizioni', 'queryafter']),
    );
    const chunkTexts = await details.locator('.chunk-list .chunk-text').allTextContents();
    expect(chunkTexts).toContain('costo della spedizione');
    expect(await details.locator('.flag-rag').count()).toBe(3);

    // Keyboard: arrows move through the tree, Enter selects.
    await tree.locator('.tree-item[data-node-id="202"]').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await details.getAttribute('data-node-id')).toBe('204');
    await tree.locator('.tree-item[data-node-id="202"] > .tree-row').click();
    await page.setViewportSize({ width: VIEWPORT.width, height: 1060 });
    await tree.locator('.tree-container').evaluate((element) => {
      element.scrollTop = 0;
    });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SCREENSHOTS}tree.png` });
    await page.setViewportSize(VIEWPORT);

    // The route tester (debug only).
    await page.locator('#route-input').fill('ciao');
    await page.locator('#route-form button').click();
    await page.locator('#route-result .node-ref').waitFor();
    expect(await page.locator('#route-result .node-ref').textContent()).toBe('saluto #10');

    // Esc closes the panel.
    await page.keyboard.press('Escape');
    expect(await page.locator('#side').isHidden()).toBe(true);

    // The order number: the generative order status calls the orderStatus tool and answers from
    // its result; the debug panel lists the call with its step, arguments and result.
    await say(page, '12345');
    expect(await page.locator('.turn:nth-child(5) .msg--agent .content').textContent()).toBe(
      'Il tuo ordine viaggia con BRT.',
    );
    expect(await page.locator('.turn:nth-child(5) .tool-activity').count()).toBe(0);
    await page.locator('.turn:nth-child(5) .turn-meta .inspect').click();
    const toolRow = page.locator('#panel-debug [data-section="tools"] .tools-table tbody tr');
    expect(await toolRow.count()).toBe(1);
    expect(await toolRow.getAttribute('data-tool')).toBe('orderStatus');
    expect(await toolRow.getAttribute('data-outcome')).toBe('ok');
    await toolRow.locator('details summary').first().click();
    expect(await toolRow.locator('.json').first().textContent()).toContain('"orderNumber": "12345"');
    expect(errors).toEqual([]);
  }, 120_000);

  it('uploads files, shows dynamic attachments in place and download links; no-match, errors, no debug UI', async () => {
    const { page, errors } = await open(lab.url);
    // Without debug, the customer's chat page: the assistant's name, no staff pages.
    expect(await page.locator('#assistant-name').textContent()).toBe('lab');
    expect(await page.locator('#debug-badge').isHidden()).toBe(true);
    expect(await page.locator('#toggle-debug').isHidden()).toBe(true);

    // Upload, then send with the file.
    const photo = png(64, 48, [8, 135, 90]);
    await page
      .locator('#file-input')
      .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: photo });
    await page.waitForSelector('.pending-file[data-status="ready"]');
    expect(await page.locator('.pending-file .file-name').textContent()).toBe('photo.png');
    await say(page, 'receipt');
    expect(await page.locator('.pending-file').count()).toBe(0);
    const user = page.locator('.turn:nth-child(1) .msg--user');
    expect(await user.locator('.file-chip .file-name').textContent()).toBe('photo.png');
    await user.locator('img[alt="photo.png"]').waitFor();

    // The answer: text, the image in place of {{chart.png}}, a link in place of {{report.txt}}.
    const answer = page.locator('.turn:nth-child(1) .msg--agent');
    const content = answer.locator('.content');
    expect(await content.textContent()).toContain(`Received: photo.png (${photo.length} bytes).`);
    expect(await content.textContent()).not.toContain('{{chart.png}}');
    expect(await content.textContent()).not.toContain('{{report.txt}}');
    expect(await content.textContent()).toContain('{{missing.pdf}} stays as text');
    const chart = content.locator('figure img[alt="chart.png"]');
    await expect.poll(() => chart.evaluate((image: any) => image.naturalWidth)).toBe(180);
    const report = content.locator('a.file-chip', { hasText: 'report.txt' });
    expect(await report.count()).toBe(1);
    // The order of the parts follows the text.
    const parts = await content.evaluate((element: any) =>
      [...element.childNodes].map((node: any) =>
        node.nodeType === 3 ? 'text' : node.matches('figure') ? 'image' : 'link',
      ),
    );
    expect(parts).toEqual(['text', 'image', 'text', 'link', 'text']);

    // Downloads carry the session token; the file arrives with its name.
    const [download] = await Promise.all([page.waitForEvent('download'), report.click()]);
    expect(download.suggestedFilename()).toBe('report.txt');
    expect(readFileSync((await download.path())!, 'utf8')).toBe(REPORT);
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      answer.locator('.files a.file-chip', { hasText: 'summary.csv' }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe('summary.csv');

    // No debug UI without debug mode.
    expect(await page.locator('.turn-meta .inspect').count()).toBe(0);

    // waitInteraction.
    await say(page, 'order status');
    expect(await page.locator('#composer-hint').textContent()).toContain('waiting for your answer');
    expect(await page.evaluate('document.activeElement?.id')).toBe('message-input');

    // No match: shown as such, not as an error.
    await say(page, 'something else entirely');
    const noMatch = page.locator('.turn:nth-child(3) .notice--nomatch');
    expect(await noMatch.locator('.notice-title').textContent()).toBe('No match');
    expect(await page.locator('#composer').getAttribute('class')).not.toContain('is-waiting');

    // An error: as an alert, in the customer's words (no code: that is for developers).
    await say(page, 'fail');
    const error = page.locator('.turn:nth-child(4) .notice--error');
    expect(await error.getAttribute('role')).toBe('alert');
    expect(await error.locator('.error-message').textContent()).toBeTruthy();
    expect(await error.locator('.error-code').count()).toBe(0);
    expect(await error.textContent()).not.toContain('CALLBACK_ERROR');

    // Shift+Enter is a new line, Enter sends.
    await page.locator('#message-input').fill('');
    await page.locator('#message-input').type('first line');
    await page.keyboard.press('Shift+Enter');
    await page.locator('#message-input').type('second line');
    expect(await page.locator('#message-input').inputValue()).toBe('first line\nsecond line');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.turn:nth-child(5) .turn-meta');
    expect(await page.locator('.turn:nth-child(5) .msg--user .content').textContent()).toBe(
      'first line\nsecond line',
    );

    // A reload keeps the session (sessionStorage) and shows the history (a failed turn saved nothing).
    const session = await storedSession(page);
    await page.reload();
    await page.waitForSelector('body.is-ready');
    expect(await storedSession(page)).toBe(session);
    expect(await texts(page, '.msg--user .content')).toEqual([
      'receipt',
      'order status',
      'something else entirely',
      'first line\nsecond line',
    ]);
    expect(await page.locator('.msg--agent .content').first().textContent()).toContain('Received: photo.png');

    // A new chat starts an empty session.
    await page.locator('#new-chat').click();
    await expect.poll(() => storedSession(page)).not.toBe(session);
    expect(await page.locator('.turn').count()).toBe(0);
    expect(await page.locator('#empty-state').isVisible()).toBe(true);
    expect(errors).toEqual([]);
  }, 120_000);

  it('stops a turn mid-stream and offers to retry it; does not send empty messages', async () => {
    const { page, errors } = await open(bikeShop.url);
    const release = model.hold();
    await page.locator('#message-input').fill('quanto costa la spedizione?');
    await page.keyboard.press('Enter');
    await page.locator('.msg--agent.is-streaming').waitFor();
    await page.locator('#stop-button').click();
    release();
    const error = page.locator('.turn:nth-child(1) .notice--error');
    await error.waitFor();
    expect(await error.locator('.error-code').textContent()).toBe('ABORTED');
    expect(await page.locator('#send-button').isVisible()).toBe(true);
    await error.locator('button', { hasText: 'Retry' }).click();
    await page.waitForSelector('.turn:nth-child(2) .turn-meta');
    expect(await page.locator('.turn:nth-child(2) .msg--agent .content').textContent()).toBe(ANSWER);
    // The retried turn has no Retry left: a second click would send the message twice.
    expect(await error.locator('button', { hasText: 'Retry' }).count()).toBe(0);

    // An empty message is not sent.
    await page.locator('#message-input').fill('   ');
    await page.keyboard.press('Enter');
    expect(await page.locator('#composer-hint').textContent()).toBe('Write a message first.');
    expect(await page.locator('.turn').count()).toBe(2);
    expect(errors).toEqual([]);
  }, 120_000);

  it('pages: the tree page loads from its own URL, the top bar moves between pages without a reload, an unknown path says so', async () => {
    const { page, errors } = await open(`${bikeShop.url}/staff/tree`);
    expect(await page.locator('.page-link[aria-current="page"]').textContent()).toBe('Tree');
    expect(await page.locator('#tree-page .tree-item').count()).toBe(25);
    await page.locator('#tree-page .tree-item[data-node-id="202"] > .tree-row').click();
    expect(await page.locator('#tree-page .node-details').getAttribute('data-node-id')).toBe('202');
    await page.locator('#route-input').fill('quanto costa la spedizione');
    await page.locator('#route-form button').click();
    await page.locator('#route-result .node-ref').waitFor();
    expect(await page.locator('#legend-path').textContent()).toBe('path of the routed text');
    expect(await page.locator('#tree-page .tree-item.on-path').count()).toBeGreaterThan(2);

    // Client-side navigation: the document stays (a marker set on window survives), the URL changes.
    await page.evaluate('window.__samePage = true');
    await page.locator('.page-link', { hasText: 'Chat' }).click();
    await page.locator('#message-input').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.evaluate('window.__samePage')).toBe(true);
    await page.goBack();
    await page.locator('#tree-page').waitFor();
    expect(await page.evaluate('window.__samePage')).toBe(true);

    await page.goto(`${bikeShop.url}/no/such/page`);
    await page.waitForSelector('body.is-ready');
    expect(await page.locator('.page-not-found h1').textContent()).toBe('No page here');
    expect(await page.locator('.page-not-found code').textContent()).toBe('/no/such/page');
    expect(errors).toEqual([]);
  }, 120_000);

  it('asks for the API key when the server needs one, and keeps it for the tab', async () => {
    const locked = await serve({
      agent: labAgent(),
      hostname: '127.0.0.1',
      port: 0,
      apiKeys: ['sk-web'],
      web: { directory: WEB_DIRECTORY },
      logger: memoryLogger(),
    });
    try {
      const context = await browser.newContext({ viewport: VIEWPORT });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(locked.url);
      const dialog = page.locator('#api-key-dialog');
      await dialog.waitFor();
      await page.locator('#api-key-input').fill('sk-wrong');
      await page.locator('#api-key-dialog button[value="save"]').click();
      await expect.poll(() => dialog.locator('.dialog-error').textContent()).toContain('refused');
      await page.locator('#api-key-input').fill('sk-web');
      await page.locator('#api-key-dialog button[value="save"]').click();
      await page.waitForSelector('body.is-ready');
      expect(await page.locator('#assistant-name').textContent()).toBe('lab');
      await say(page, 'order status');
      expect(await page.locator('.msg--agent .content').textContent()).toBe('What is your order number?');
      expect(await page.evaluate("sessionStorage.getItem('treeagent.apiKey')")).toBe('sk-web');
    } finally {
      await locked.close({ timeoutMs: 1000 });
    }
  }, 120_000);
});

/** The session the page keeps in the tab's storage (the customer's page does not show it). */
function storedSession(page: Page): Promise<unknown> {
  return page.evaluate("sessionStorage.getItem('treeagent.session')");
}
