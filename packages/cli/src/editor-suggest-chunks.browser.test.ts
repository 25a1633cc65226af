import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EditorFixture,
  openEditor,
  screenshotDirectory,
  selectNode,
  startEditorFixture,
  waitChecked,
} from './test-support/editor-browser.js';
import { type LoopbackOpenAi, startLoopbackOpenAi } from './test-support/loopback-openai.js';

/**
 * "Suggest chunks" end to end in Debian's Chromium: a real `treeagent dev` configured (by
 * treeagent.config.json beside the tree) against a loopback OpenAI-compatible server; the editor
 * asks for paraphrases of a node's chunks, shows them with the routing eval's change on the labelled
 * utterances, adds the checked ones (one undo step), and saves them. Takes
 * docs/screenshots/editor-suggest-chunks{,-phone}.png with TREEAGENT_UPDATE_SCREENSHOTS=1.
 */

const SCREENSHOTS = screenshotDirectory('editor-suggest-chunks');
const TREE = {
  format: 'treeagent-tree',
  version: 1,
  nodes: [
    { id: 1, type: 'root', name: 'root' },
    { id: 2, type: 'agent', parent: 1, name: 'shop', isPrimary: true },
    {
      id: 3,
      type: 'emit',
      parent: 2,
      name: 'shipping',
      chunks: ['how much does shipping cost'],
      emit: { message: { type: 'static', content: 'Shipping is 7.90.' } },
    },
    {
      id: 4,
      type: 'emit',
      parent: 2,
      name: 'returns',
      chunks: ['how do I return a product', 'send back an item for a refund'],
      emit: { message: { type: 'static', content: 'You have 30 days.' } },
    },
  ],
};
const SUGGESTED = ['what does delivery cost', 'delivery price to italy', 'postage fees for my parcel'];

let model: LoopbackOpenAi;
let fixture: EditorFixture;

beforeAll(async () => {
  model = await startLoopbackOpenAi(() => JSON.stringify({ chunks: SUGGESTED }));
  fixture = await startEditorFixture('shop', TREE, {
    files: {
      'treeagent.config.json': JSON.stringify({
        models: { default: { provider: 'openai-compatible', model: 'loopback', baseURL: model.baseURL } },
      }),
      'utterances.json': JSON.stringify([
        ['what does delivery cost', 'shipping'],
        ['delivery price to italy please', 'shipping'],
        ['postage fees', 'shipping'],
        ['return my shoes', 'returns'],
      ]),
    },
  });
}, 60_000);

afterAll(async () => {
  await fixture?.close();
  await model?.close();
});

const chunkCount = (page: Page) => page.locator('#node-form .chunk-text').count();

describe('suggest chunks', () => {
  it("asks the configured model for paraphrases (told the siblings' chunks), shows the eval's change, adds the checked ones (undoable), saves", async () => {
    const page = await (
      await fixture.browser.newContext({ viewport: { width: 1280, height: 800 } })
    ).newPage();
    await openEditor(page, fixture.dev.url);
    await selectNode(page, 3);
    const before = await chunkCount(page);
    await page.locator('#suggest-chunks-button').click();
    await page.waitForSelector('.suggested-chunks li');
    expect(await page.locator('#suggest-chunks-source').textContent()).toContain('configured model');
    const shown = await page.locator('.suggested-chunks li').allTextContents();
    expect(shown.map((text) => text.trim())).toEqual(SUGGESTED);
    // The prompt carried the node's chunks and its siblings'.
    const prompt = JSON.stringify(model.requests.at(-1)?.messages);
    expect(prompt).toContain('how much does shipping cost');
    expect(prompt).toContain('send back an item for a refund');
    // The eval's change on the 4 labelled utterances: accuracy and the node's recall.
    const evaluation = await page.locator('#suggest-chunks-eval').textContent();
    expect(evaluation).toMatch(/accuracy goes from [\d.]+% to [\d.]+% on 4 labelled utterances/);
    expect(evaluation).toMatch(/recall: [\d.]+% → [\d.]+%/);
    await page.locator('#suggest-chunks').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}editor-suggest-chunks.png` });

    // Uncheck the last, add the other two: one undo step.
    await page.locator('.suggested-chunks li').nth(2).locator('input').uncheck();
    await page.locator('#add-suggested-chunks').click();
    await expect.poll(() => chunkCount(page)).toBe(before + 2);
    await waitChecked(page);
    await page.locator('#undo').click();
    await expect.poll(() => chunkCount(page)).toBe(before);
    await page.locator('#redo').click();
    await expect.poll(() => chunkCount(page)).toBe(before + 2);
    await waitChecked(page);
    const reloaded = fixture.dev.nextReload();
    await page.locator('#save').click();
    await page.waitForSelector('#editor-status:text-is("Saved")');
    await reloaded;
    const saved = JSON.parse(readFileSync(fixture.treePath, 'utf8')) as {
      nodes: { id: number; chunks?: string[] }[];
    };
    expect(saved.nodes.find((node) => node.id === 3)?.chunks).toEqual([
      'how much does shipping cost',
      'what does delivery cost',
      'delivery price to italy',
    ]);
    await page.close();

    const phone = await (
      await fixture.browser.newContext({ viewport: { width: 390, height: 844 } })
    ).newPage();
    await openEditor(phone, fixture.dev.url);
    await selectNode(phone, 3);
    await phone.locator('#suggest-chunks-button').click();
    await phone.waitForSelector('.suggested-chunks li');
    await phone.locator('#suggest-chunks').scrollIntoViewIfNeeded();
    await phone.screenshot({ path: `${SCREENSHOTS}editor-suggest-chunks-phone.png` });
    await phone.close();
  }, 90_000);
});

describe('suggest chunks without a model', () => {
  let offline: EditorFixture;
  beforeAll(async () => {
    // No model configured; thresholds so high that every message goes unmatched.
    const strict = {
      ...TREE,
      nodes: TREE.nodes.map((node) => (node.id === 1 ? { ...node, defaultSimilarityThreshold: 0.99 } : node)),
    };
    offline = await startEditorFixture('offline-shop', strict);
  }, 60_000);
  afterAll(() => offline?.close());

  it('offers the unmatched messages closest to the node (most frequent first), from the analytics', async () => {
    const url = offline.dev.url;
    const session = (await (await fetch(`${url}/api/v1/sessions`, { method: 'POST' })).json()) as {
      sessionId: string;
      token: string;
    };
    const say = async (text: string) => {
      const response = await fetch(`${url}/api/v1/sessions/${session.sessionId}/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Session-Token': session.token },
        body: JSON.stringify({ message: text }),
      });
      expect(response.status).toBeLessThan(300);
      await response.text();
    };
    for (const text of [
      'how much is shipping to spain',
      'how much is shipping to spain',
      'return the product I bought',
    ])
      await say(text);
    const page = await (
      await offline.browser.newContext({ viewport: { width: 1280, height: 800 } })
    ).newPage();
    await openEditor(page, url);
    await selectNode(page, 3);
    await page.locator('#suggest-chunks-button').click();
    await page.waitForSelector('#suggest-chunks-source');
    expect(await page.locator('#suggest-chunks-source').textContent()).toContain(
      'No language model configured',
    );
    const shown = (await page.locator('.suggested-chunks li').allTextContents()).map((text) => text.trim());
    expect(shown).toEqual(['how much is shipping to spain (×2)']);
    await page.close();
  }, 60_000);
});
