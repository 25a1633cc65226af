import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './main.js';
import {
  type EditorFixture,
  quietOutput as quiet,
  startScaffoldedEditor,
} from './test-support/editor-browser.js';

/**
 * A new project from `npm create treeagent` (the default template: a JSON tree and its typed
 * callbacks module), opened in the tree editor of `treeagent dev` in Debian's Chromium: a node's
 * answer edited and saved; the file keeps its callbacks and components, the project still lints,
 * passes its conversation tests and answers in the chat with the edited text and its callbacks.
 */

const NEW_HOURS = 'Our shops are open every day from 8:00 to 20:00.';

let fixture: EditorFixture & { project: string };

beforeAll(async () => {
  fixture = await startScaffoldedEditor('phone-bot');
}, 60_000);

afterAll(() => fixture?.close());

describe('a project from npm create treeagent in the editor', () => {
  it('opens editable; a node edited and saved; the project still runs', async () => {
    const { dev, project, treePath } = fixture;
    const page = await fixture.newPage({ width: 1280, height: 800 });
    await page.goto(`${dev.url}/staff/editor`);
    await page.waitForSelector('body.is-ready');
    await page.locator('#editor-status:text-is("Saved")').waitFor();
    // The hours node (11), with its static answer in the inspector.
    await page.locator('[data-node-id="11"] .graph-node-box').click();
    await page.waitForSelector('#node-form .node-form-id:text("#11")');
    await page.locator('#message-content').fill(NEW_HOURS);
    await page.locator('#message-content').press('Tab');
    await page.locator('#editor-status:text-is("Unsaved changes")').waitFor();
    await page.locator('#editor-status:not(:text-is("Checking…"))').waitFor();
    const reloaded = dev.nextReload();
    await page.locator('#save').click();
    await page.waitForSelector('#editor-status:text-is("Saved")');
    await reloaded;

    const saved = JSON.parse(readFileSync(treePath, 'utf8'));
    expect(saved.module).toBe('./tree.callbacks.ts');
    expect(Object.keys(saved.components)).toEqual(['shipping']);
    const byId = new Map(saved.nodes.map((node: { id: number }) => [node.id, node]));
    expect(byId.get(11)).toMatchObject({ emit: { message: { content: NEW_HOURS } } });
    expect(byId.get(31)).toMatchObject({ callbacks: { after: 'readEmail' } });

    // The project still runs: lint, its conversation tests, and the chat with its callbacks.
    expect(await main(['lint', treePath], quiet)).toBe(0);
    expect(await main(['test', treePath, join(project, 'tests/conversations.yaml')], quiet)).toBe(0);
    const { sessionId, token } = (await (
      await fetch(`${dev.url}/api/v1/sessions`, { method: 'POST' })
    ).json()) as {
      sessionId: string;
      token: string;
    };
    const say = async (message: string) => {
      const response = await fetch(`${dev.url}/api/v1/sessions/${sessionId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-session-token': token },
        body: JSON.stringify({ message }),
      });
      return ((await response.json()) as { messages: { content: string }[] }).messages.map(
        (item) => item.content,
      );
    };
    expect(await say('when are you open?')).toEqual([NEW_HOURS]);
    expect((await say('please contact me')).join(' ')).toMatch(/email/i);
    expect((await say('ada@example.com')).join(' ')).toContain('ada@example.com');
  }, 120_000);
});
