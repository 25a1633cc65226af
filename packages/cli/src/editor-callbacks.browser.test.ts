import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServer } from './commands/dev.js';
import {
  type EditorFixture,
  screenshotDirectory,
  startScaffoldedEditor,
} from './test-support/editor-browser.js';

/**
 * The editor's Callbacks panel in Debian's Chromium, on a project made by `npm create treeagent` and
 * served by `treeagent dev`: a callback with a type error is refused (the error inline and listed,
 * Save disabled, the server refusing too, the file unchanged); corrected, it saves and the next chat
 * turn runs it; "Add before callback" on a node writes a stub that type-checks and names it on the
 * node. The project's node_modules is the repository's (what `npm install` gives a project: the
 * @treeagent/core types and typescript). Takes docs/screenshots/editor-callbacks*.png with
 * TREEAGENT_UPDATE_SCREENSHOTS=1 (else into a temporary directory).
 */

const SCREENSHOTS = screenshotDirectory('editor-callbacks');
const DONE_LINE =
  /content: "Thank you! We will write to \{email\} within one working day\."\.replace\([^\n]*\),/;

let fixture: EditorFixture;
let dev: DevServer;
let treePath: string;
let modulePath: string;

beforeAll(async () => {
  // The module is checked against @treeagent/core's declarations, as in an installed project.
  const scaffolded = await startScaffoldedEditor('callbacks-bot', { repositoryModules: true });
  fixture = scaffolded;
  ({ dev, treePath } = scaffolded);
  modulePath = join(scaffolded.project, 'src/tree.callbacks.ts');
}, 240_000);

afterAll(() => fixture?.close());

async function openPanel(page: Page): Promise<void> {
  await page.goto(`${dev.url}/staff/editor`);
  await page.waitForSelector('body.is-ready');
  await page.locator('#editor-status:text-is("Saved")').waitFor();
  await page.locator('#callbacks-open').click();
  // The worker's compiler has checked the module as generated: no error.
  await page
    .locator('#callbacks-status:text-is("No type errors; no unsaved changes")')
    .waitFor({ timeout: 60_000 });
}

/**
 * Replaces the code editor's text as a paste does: all selected, then a paste event with the text
 * (Playwright's fill and insertText go through the DOM, where leading spaces become no-break spaces).
 */
async function replaceCode(page: Page, text: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.locator('.cm-content').evaluate((element, value) => {
    const browser = globalThis as unknown as {
      DataTransfer: new () => { setData(type: string, value: string): void };
      ClipboardEvent: new (type: string, init: object) => unknown;
    };
    const data = new browser.DataTransfer();
    data.setData('text/plain', value);
    (element as unknown as { dispatchEvent(event: unknown): void }).dispatchEvent(
      new browser.ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

/** axe-core's WCAG 2.1 A/AA violations on the page (evaluated over the debugging protocol, not the page's CSP). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  const found = (await page.evaluate(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => JSON.stringify(n.target)).join(' ')))",
  )) as string[];
  return found;
}

async function chat(messages: string[]): Promise<string[]> {
  const { sessionId, token } = (await (
    await fetch(`${dev.url}/api/v1/sessions`, { method: 'POST' })
  ).json()) as {
    sessionId: string;
    token: string;
  };
  const answers: string[] = [];
  for (const message of messages) {
    const response = await fetch(`${dev.url}/api/v1/sessions/${sessionId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-token': token },
      body: JSON.stringify({ message }),
    });
    const body = (await response.json()) as { messages: { content: string }[] };
    answers.push(body.messages.map((item) => item.content).join(' '));
  }
  return answers;
}

describe('callbacks in the editor', () => {
  it('refuses a type error (shown inline), saves the correction, and the next turn runs it', async () => {
    const page = await fixture.newPage({ width: 1280, height: 800 });
    await openPanel(page);
    const original = readFileSync(modulePath, 'utf8');
    expect(original).toMatch(DONE_LINE);

    const wrong = original.replace(DONE_LINE, 'content: 42,');
    await replaceCode(page, wrong);
    await page
      .locator('#callbacks-status:text-is("1 type error: fix it to save")')
      .waitFor({ timeout: 30_000 });
    const listed = await page.locator('#callbacks-errors li').textContent();
    expect(listed).toMatch(
      /^\.\/tree\.callbacks\.ts:\d+:\d+ Type 'number' is not assignable to type 'LocalizedText \| null'/,
    );
    await page.locator('.cm-lintRange-error').first().waitFor();
    expect(await page.locator('#callbacks-save').isDisabled()).toBe(true);
    // The listed error leads to its line.
    await page.locator('#callbacks-errors li button').click();
    expect(await page.locator('.cm-activeLine').textContent()).toContain('content: 42,');
    await page.screenshot({ path: `${SCREENSHOTS}editor-callbacks.png` });
    // The open panel, with its error, is accessible (WCAG 2.1 AA).
    expect(await axeViolations(page)).toEqual([]);

    // The server refuses it too, with file, line, column and message; nothing is written.
    const { version } = (await (await fetch(`${dev.url}/api/v1/editor/callbacks`)).json()) as {
      version: string;
    };
    const refused = await fetch(`${dev.url}/api/v1/editor/callbacks`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: wrong, baseVersion: version }),
    });
    expect(refused.status).toBe(422);
    const body = (await refused.json()) as {
      error: { code: string; details: { diagnostics: { file: string; line: number; message: string }[] } };
    };
    expect(body.error.code).toBe('CALLBACK_TYPE_ERRORS');
    expect(body.error.details.diagnostics[0]).toMatchObject({ file: './tree.callbacks.ts' });
    expect(listed).toContain(`:${body.error.details.diagnostics[0]!.line}:`);
    expect(readFileSync(modulePath, 'utf8')).toBe(original);

    const corrected = original.replace(
      DONE_LINE,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the TypeScript source written into the module
      "content: `Noted: ${context.sessionState.get<string>('email') ?? ''}, we answer within the hour.`,",
    );
    await replaceCode(page, corrected);
    await page
      .locator('#callbacks-status:text-is("No type errors: ready to save")')
      .waitFor({ timeout: 30_000 });
    await page.locator('#callbacks-save').click();
    await page
      .locator('#callbacks-status:text-is("Saved; the agent runs the new code from the next message")')
      .waitFor();
    expect(readFileSync(modulePath, 'utf8')).toBe(corrected);

    const answers = await chat(['please contact me', 'ada@example.com']);
    expect(answers[1]).toBe('Noted: ada@example.com, we answer within the hour.');
  }, 180_000);

  it('"Add before callback" on a node writes a typed stub, opens it, and names it on the node', async () => {
    const page = await fixture.newPage({ width: 1280, height: 800 });
    await openPanel(page);
    await page.locator('#callbacks-close').click();
    // The greeting (10): an emit node, with no before callback.
    await page.locator('[data-node-id="10"] .graph-node-box').click();
    await page.waitForSelector('#node-form .node-form-id:text("#10")');
    await page.locator('#add-callback-before').click();
    await page
      .locator('#callbacks-status:text-is("Saved; the agent runs the new code from the next message")')
      .waitFor({
        timeout: 30_000,
      });
    const saved = readFileSync(modulePath, 'utf8');
    expect(saved).toContain('export const greetingBefore: BeforeCallback = async (_self, _context) => {');
    expect(saved).toMatch(/import type \{[^}]*\bBeforeCallback,[^}]*\} from '@treeagent\/core';/);
    // The cursor is on the stub.
    expect(await page.locator('.cm-activeLine').textContent()).toContain('export const greetingBefore');
    // The stub type-checks on the server.
    const checked = await fetch(`${dev.url}/api/v1/editor/callbacks/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: saved }),
    });
    expect(((await checked.json()) as { diagnostics: unknown[] }).diagnostics).toEqual([]);

    // The node names it; the tree saves (its check loads the module, which exports it) and still answers.
    await page.locator('#callbacks-close').click();
    expect(await page.locator('#callback-before').inputValue()).toBe('greetingBefore');
    await page.locator('#editor-status:text-is("Unsaved changes")').waitFor();
    await page.locator('#editor-status:not(:text-is("Checking…"))').waitFor();
    await page.locator('#save').click();
    await page.waitForSelector('#editor-status:text-is("Saved")');
    const tree = JSON.parse(readFileSync(treePath, 'utf8')) as {
      nodes: { id: number; callbacks?: object }[];
    };
    expect(tree.nodes.find((node) => node.id === 10)?.callbacks).toEqual({ before: 'greetingBefore' });
  }, 180_000);

  it('on a phone (390 px): the panel over the page, its errors below the code', async () => {
    const page = await fixture.newPage({ width: 390, height: 844 });
    await openPanel(page);
    const text = readFileSync(modulePath, 'utf8');
    await replaceCode(page, `${text}\nexport const broken: number = 'not a number';\n`);
    await page
      .locator('#callbacks-status:text-is("1 type error: fix it to save")')
      .waitFor({ timeout: 30_000 });
    const width = (await page.locator('#callbacks-panel').boundingBox())?.width ?? Number.POSITIVE_INFINITY;
    expect(width).toBeLessThanOrEqual(390);
    await page.locator('#callbacks-errors li button').click();
    await page.screenshot({ path: `${SCREENSHOTS}editor-callbacks-phone.png` });
    expect(readFileSync(modulePath, 'utf8')).toBe(text);
  }, 180_000);
});
