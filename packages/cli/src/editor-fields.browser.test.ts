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

/**
 * The editor's schema-driven fields (docs/editor.md, *Every field*) in Debian's Chromium, against
 * `treeagent dev` on a JSON tree file: the fields of an llm, a query, an emit, a guardrail node and
 * the root's options edited, a wrong value refused on its field, saved, the file and the reloaded
 * page checked, a message routed. Takes docs/screenshots/editor-llm-fields.png with
 * TREEAGENT_UPDATE_SCREENSHOTS=1 (else into a temporary directory).
 */

const SCREENSHOTS = screenshotDirectory('editor-fields');

const TREE = {
  format: 'treeagent-tree',
  version: 1,
  module: './carrier.callbacks.mjs',
  nodes: [
    { id: 1, type: 'root', name: 'root' },
    { id: 2, type: 'agent', parent: 1, name: 'carrier', isPrimary: true },
    {
      id: 3,
      type: 'emit',
      parent: 2,
      name: 'plans',
      chunks: ['which plans do you have', 'mobile plans and prices', 'tariffs for my phone'],
      emit: { message: { type: 'static', content: 'We have three plans.' } },
    },
    {
      id: 4,
      type: 'query',
      parent: 2,
      name: 'coverage',
      chunks: ['is there coverage in my town', 'network signal in my area', '5G coverage map'],
    },
    {
      id: 5,
      type: 'llm',
      parent: 2,
      name: 'advisor',
      chunks: ['which plan suits me best', 'advise me on a plan', 'help me choose an offer'],
      tools: { lookupPlan: { description: 'Find a plan', parameters: { type: 'object' } } },
      callbacks: { 'tools.lookupPlan': 'lookupPlan' },
    },
    { id: 6, type: 'emit', parent: 5, name: 'advice', emit: { message: { type: 'generated' } } },
    { id: 7, type: 'guardrail', parent: 2, name: 'polite', warning: 'Please stay polite.' },
  ],
};

let fixture: EditorFixture;
let page: Page;

beforeAll(async () => {
  // The editor shows the file's path (and so does the screenshot): a folder named like a user's project.
  fixture = await startEditorFixture('carrier', TREE, {
    folder: 'my-carrier',
    files: { 'carrier.callbacks.mjs': 'export function lookupPlan() { return "basic"; }\n' },
  });
  page = await fixture.newPage({ width: 1280, height: 800 });
}, 60_000);

afterAll(() => fixture?.close());

/** Types `value` into a field and commits it (Tab), then waits for the draft's check. */
async function set(selector: string, value: string): Promise<void> {
  await page.locator(selector).fill(value);
  await page.locator(selector).press('Tab');
  await waitChecked(page);
}

const nodeOf = (document: typeof TREE, id: number) =>
  document.nodes.find((node) => node.id === id) as Record<string, unknown>;

describe('the inspector edits every field of every node type and of the root', () => {
  it('edits llm, query, emit, guardrail fields and root options; refuses a wrong value on its field; saves, reloads, routes', async () => {
    await openEditor(page, fixture.dev.url);
    expect(await page.locator('#editor-status').textContent()).toBe('Saved');

    // The root's options.
    await selectNode(page, 1);
    await set('#field-conversationGoal', 'Sell the customer a plan');
    await page.locator('#field-smartExtendedMessage').check();
    await set('#field-topics', 'plans\nroaming\ncoverage');

    // An llm node: model, prompt, JSON schema and attempts, tools, maxToolSteps.
    await selectNode(page, 5);
    await set('#field-model', 'gpt-4o-mini');
    await set('#field-prompt-prompt', 'Advise the customer on a plan.');
    await set('#field-prompt-systemPrompt', 'You are a phone carrier assistant.');
    await set('#field-prompt-modelParams', '{"stream": true, "webSearch": true}');
    await set(
      '#field-responseFormat-schema',
      '{"type": "object", "properties": {"plan": {"type": "string"}}}',
    );
    await set('#field-responseFormat-attemptsLimit', '2');
    // JSON that does not parse is refused on the field and not written.
    await set('#field-tools', '{lookupPlan');
    await page.waitForSelector('.schema-field:has(#field-tools) .finding:text("Not JSON")');
    await set(
      '#field-tools',
      '{"lookupPlan": {"description": "Find the plan for a budget", "parameters": {"type": "object"}}}',
    );
    // A value the schema refuses: the check's problem shows on the field, and Save is disabled.
    await set('#field-maxToolSteps', '0');
    const problem = page.locator('.schema-field:has(#field-maxToolSteps) .field-problem');
    await problem.waitFor();
    expect(await problem.textContent()).toContain('maxToolSteps');
    expect(await page.locator('#save').isDisabled()).toBe(true);
    await set('#field-maxToolSteps', '3');
    await page
      .locator('.schema-field:has(#field-maxToolSteps) .field-problem')
      .waitFor({ state: 'detached' });
    await page.locator(':focus').blur();
    await page.locator('#schema-section').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}editor-llm-fields.png` });

    // A query node: collection search, filter, chunk quantity, threshold.
    await selectNode(page, 4);
    await set('#field-query-query', 'coverage map');
    await set('#field-query-filter', '{"must": [{"key": "region", "match": {"value": "north"}}]}');
    await set('#field-query-chunkQty', '4');
    await set('#field-query-threshold', '0.2');

    // An emit node: sources, dynamic attachments, wait for interaction.
    await selectNode(page, 3);
    await set('#field-emit-sources', '[{"title": "Plans", "content": "Basic, Plus, Max"}]');
    await set(
      '#field-emit-dynamicAttachments',
      '[{"id": "f1", "name": "plans.pdf", "mimeType": "application/pdf", "origin": "generated"}]',
    );
    await page.locator('#field-emit-waitInteraction').check();
    await waitChecked(page);

    // A guardrail: a generated warning.
    await selectNode(page, 7);
    await page.locator('#warning-kind').selectOption('generated');
    await waitChecked(page);
    await set('#field-warning-prompt', 'Ask the customer, kindly, to stay polite.');

    expect(await page.locator('#editor-status').textContent()).toBe('Unsaved changes');
    const reloaded = fixture.dev.nextReload();
    await page.locator('#save').click();
    await page.waitForSelector('#editor-status:text-is("Saved")');
    await reloaded;

    const saved = JSON.parse(readFileSync(fixture.treePath, 'utf8'));
    expect(nodeOf(saved, 1)).toMatchObject({
      conversationGoal: 'Sell the customer a plan',
      smartExtendedMessage: true,
      topics: ['plans', 'roaming', 'coverage'],
    });
    expect(nodeOf(saved, 5)).toMatchObject({
      model: 'gpt-4o-mini',
      prompt: {
        prompt: 'Advise the customer on a plan.',
        systemPrompt: 'You are a phone carrier assistant.',
        modelParams: { stream: true, webSearch: true },
      },
      responseFormat: {
        schema: { type: 'object', properties: { plan: { type: 'string' } } },
        attemptsLimit: 2,
      },
      tools: { lookupPlan: { description: 'Find the plan for a budget', parameters: { type: 'object' } } },
      maxToolSteps: 3,
    });
    expect(nodeOf(saved, 4).query).toEqual({
      query: 'coverage map',
      filter: { must: [{ key: 'region', match: { value: 'north' } }] },
      chunkQty: 4,
      threshold: 0.2,
    });
    expect(nodeOf(saved, 3).emit).toEqual({
      message: { type: 'static', content: 'We have three plans.' },
      sources: [{ title: 'Plans', content: 'Basic, Plus, Max' }],
      dynamicAttachments: [{ id: 'f1', name: 'plans.pdf', mimeType: 'application/pdf', origin: 'generated' }],
      waitInteraction: true,
    });
    expect(nodeOf(saved, 7).warning).toEqual({
      type: 'generated',
      prompt: 'Ask the customer, kindly, to stay polite.',
    });

    // The reloaded page shows what the file holds, and routes with it.
    await openEditor(page, fixture.dev.url);
    expect(await page.locator('#editor-status').textContent()).toBe('Saved');
    await selectNode(page, 5);
    expect(await page.locator('#field-model').inputValue()).toBe('gpt-4o-mini');
    expect(await page.locator('#field-maxToolSteps').inputValue()).toBe('3');
    await selectNode(page, 4);
    expect(await page.locator('#field-query-chunkQty').inputValue()).toBe('4');
    await selectNode(page, 1);
    expect(await page.locator('#field-smartExtendedMessage').isChecked()).toBe(true);
    expect(await page.locator('#field-topics').inputValue()).toBe('plans\nroaming\ncoverage');
    await page.locator('#route-text').fill('which plans do you have?');
    await page.locator('#route-button').click();
    await page.waitForSelector('#route-node');
    expect(await page.locator('#route-node').textContent()).toBe('plans #3');
  }, 180_000);

  it('saves the text just typed in a field: Save clicked from the field, and Ctrl+S in it', async () => {
    await openEditor(page, fixture.dev.url);
    await selectNode(page, 3);
    const savedName = () => nodeOf(JSON.parse(readFileSync(fixture.treePath, 'utf8')), 3).name;

    // Typed, not committed: Save is enabled for it. A press dragged off the button before its
    // release is no click: nothing saved, the field keeps its text and the focus (the press used to
    // save).
    await page.locator('#node-name').fill('plans and prices');
    expect(await page.locator('#save').isDisabled()).toBe(false);
    const button = (await page.locator('#save').boundingBox())!;
    await page.mouse.move(button.x + button.width / 2, button.y + button.height / 2);
    await page.mouse.down();
    await page.mouse.move(button.x + button.width / 2, button.y + 300, { steps: 5 });
    await page.mouse.up();
    await page.waitForTimeout(1000);
    expect(savedName()).toBe('plans');
    expect(await page.locator('#node-name').inputValue()).toBe('plans and prices');
    expect(
      await page.locator('#node-name').evaluate((field) => field === field.ownerDocument.activeElement),
    ).toBe(true);
    // The click commits the field, the draft is checked, then saved (the button used to be
    // disabled until the field was left: nothing saved).
    let reloaded = fixture.dev.nextReload();
    await page.locator('#save').click();
    await expect.poll(savedName, { timeout: 10_000 }).toBe('plans and prices');
    await reloaded;
    await page.waitForSelector('#editor-status:text-is("Saved")');

    // Ctrl+S while typing saves what is on screen (it used to save the draft without it), and the
    // field keeps the focus.
    await page.locator('#node-name').fill('our plans');
    reloaded = fixture.dev.nextReload();
    await page.locator('#node-name').press('Control+s');
    await expect.poll(savedName, { timeout: 10_000 }).toBe('our plans');
    await reloaded;
    await page.waitForSelector('#editor-status:text-is("Saved")');
    expect(
      await page.locator('#node-name').evaluate((field) => field === field.ownerDocument.activeElement),
    ).toBe(true);

    // Ctrl+S in a field whose text does not parse saves nothing: the other edit stays unsaved and
    // the field keeps its text, with its error (it used to save the rest and say "Saved").
    await page.locator('#node-name').fill('plans');
    await page.locator('#node-name').press('Tab');
    await waitChecked(page);
    await selectNode(page, 5);
    await page.locator('#field-tools').fill('{lookupPlan');
    await page.locator('#field-tools').press('Control+s');
    await page.waitForSelector('.schema-field:has(#field-tools) .finding:text("Not JSON")');
    await page.waitForTimeout(1000);
    expect(savedName()).toBe('our plans');
    expect(await page.locator('#editor-status').textContent()).toBe('Unsaved changes');
    expect(await page.locator('#field-tools').inputValue()).toBe('{lookupPlan');
  }, 60_000);
});
