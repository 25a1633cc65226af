import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashOperatorPassword } from '@treeagent/server';
import { createProject } from 'create-treeagent';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
// Debian's Chromium, headless, as the server's browser tests launch it (or an error saying how to install it).
import { launchChromium } from '../../../server/src/test-support/browser.js';
import { type DevServer, startDev } from '../commands/dev.js';
import type { Output } from '../output.js';
import { ensureCoreDeclarations, REPOSITORY_NODE_MODULES } from './core-declarations.js';

/** Where a browser test writes its screenshots: docs/screenshots with TREEAGENT_UPDATE_SCREENSHOTS=1, else a temporary directory. */
export function screenshotDirectory(name: string): string {
  const directory =
    process.env.TREEAGENT_UPDATE_SCREENSHOTS === '1'
      ? fileURLToPath(new URL('../../../../docs/screenshots/', import.meta.url))
      : `${mkdtempSync(join(tmpdir(), `treeagent-${name}-screenshots-`))}/`;
  mkdirSync(directory, { recursive: true });
  return directory;
}

/** An output that prints nothing (the dev server's log). */
export const quietOutput: Output = { log: () => undefined, write: () => undefined, error: () => undefined };

/** Opens the editor of a dev server and waits until its draft is checked. */
export async function openEditor(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/staff/editor`);
  await page.waitForSelector('body.is-ready');
  await waitChecked(page);
}

/** Until the current draft has been checked. */
export async function waitChecked(page: Page): Promise<void> {
  // Preact renders the edit a moment later: let it, then wait for its check.
  await page.waitForTimeout(100);
  await page.locator('#editor-status:not(:text-is("Checking…"))').waitFor();
}

/** Selects a node by clicking its box in the graph. */
export async function selectNode(page: Page, id: number): Promise<void> {
  await page.locator(`[data-node-id="${id}"] .graph-node-box`).click();
  await page.waitForSelector(`#node-form .node-form-id:text("#${id}")`);
}

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}
interface PageElement {
  textContent: string | null;
  getBoundingClientRect(): Box;
  getScreenCTM(): { a: number } | null;
}
// The page's globals, for the function run in it: the type check of the repository has no DOM lib.
declare const document: {
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
};
declare function getComputedStyle(element: PageElement): { fontSize: string };

/** A label of the graph as drawn: its text, its size on screen and its box. */
export interface DrawnLabel {
  text: string;
  px: number;
  box: Box;
}

/** The graph's labels (node names and meta lines, group labels) that are inside the canvas. */
export function visibleLabels(page: Page): Promise<DrawnLabel[]> {
  return page.evaluate(() => {
    const canvas = document.querySelector('#tree-graph')!.getBoundingClientRect();
    return [
      ...document.querySelectorAll(
        '#tree-graph .graph-node-name, #tree-graph .graph-node-meta, #tree-graph .graph-group-label',
      ),
    ]
      .map((element) => {
        const rect = element.getBoundingClientRect();
        return {
          text: element.textContent ?? '',
          // The CSS size in the graph's units times the zoom: the size on screen.
          px: Number.parseFloat(getComputedStyle(element).fontSize) * (element.getScreenCTM()?.a ?? 1),
          box: { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom },
        };
      })
      .filter(
        ({ box }) =>
          box.right > canvas.left &&
          box.left < canvas.right &&
          box.bottom > canvas.top &&
          box.top < canvas.bottom,
      );
  });
}

/** The pairs of labels whose boxes overlap (by more than half a pixel). */
export function overlappingLabels(labels: DrawnLabel[]): [string, string][] {
  const pairs: [string, string][] = [];
  labels.forEach((a, index) => {
    for (const b of labels.slice(index + 1)) {
      const x = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
      const y = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
      if (x > 0.5 && y > 0.5) pairs.push([a.text, b.text]);
    }
  });
  return pairs;
}

/** A tree served by `treeagent dev` from a scratch folder, and Debian's Chromium: what an editor test opens. */
export interface EditorFixture {
  dev: DevServer;
  browser: Browser;
  treePath: string;
  scratch: string;
  /** A page in a new browser context of `viewport` (and the context's other `options`). */
  newPage(viewport: { width: number; height: number }, options?: BrowserContextOptions): Promise<Page>;
  /** Closes Chromium and the dev server, and deletes the scratch folder. */
  close(): Promise<void>;
}

/**
 * Starts `treeagent dev` on `treePath` (which may not exist yet: dev creates an empty tree) with its
 * data in `<scratch>/data`, and Chromium. With `operators` (a file of `writeAdminOperators`), staff
 * pages ask for a login.
 */
export async function startEditorOn(
  treePath: string,
  scratch: string,
  options: { operators?: string } = {},
): Promise<EditorFixture> {
  let dev: DevServer | undefined;
  let browser: Browser;
  try {
    dev = await startDev(
      treePath,
      {
        port: '0',
        data: join(scratch, 'data'),
        ...(options.operators ? { operators: options.operators } : {}),
      },
      quietOutput,
    );
    browser = await launchChromium();
  } catch (error) {
    await dev?.close();
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
  return {
    dev,
    browser,
    treePath,
    scratch,
    newPage: async (viewport, contextOptions = {}) =>
      (await browser.newContext({ ...contextOptions, viewport })).newPage(),
    close: async () => {
      await browser.close();
      await dev.close();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/**
 * Writes `tree` to `<scratch>/<project>.json` (with `files` beside it) and starts the editor on it.
 * The scratch folder is named after `folder` (default: `project`): the editor shows the file's path.
 */
export async function startEditorFixture(
  project: string,
  tree: unknown,
  options: { files?: Record<string, string>; folder?: string } = {},
): Promise<EditorFixture> {
  const scratch = mkdtempSync(join(tmpdir(), `${options.folder ?? project}-`));
  const treePath = join(scratch, `${project}.json`);
  writeFileSync(treePath, `${JSON.stringify(tree, null, 2)}\n`);
  for (const [name, text] of Object.entries(options.files ?? {})) writeFileSync(join(scratch, name), text);
  return startEditorOn(treePath, scratch);
}

/**
 * A project made by `npm create treeagent` (English, the default template: a JSON tree and its typed
 * callbacks module) in `<scratch>/<name>`, opened in the editor. With `repositoryModules` its
 * node_modules is the repository's (what `npm install` gives a project: the @treeagent/core types
 * and typescript) and core's declarations are built, so its module type-checks as in an installed
 * project.
 */
export async function startScaffoldedEditor(
  name: string,
  options: { repositoryModules?: boolean } = {},
): Promise<EditorFixture & { project: string }> {
  const scratch = mkdtempSync(join(tmpdir(), `${name}-`));
  const project = join(scratch, name);
  createProject({ directory: project, language: 'en', template: 'minimal' });
  if (options.repositoryModules) {
    symlinkSync(REPOSITORY_NODE_MODULES, join(project, 'node_modules'));
    ensureCoreDeclarations();
  }
  return { ...(await startEditorOn(join(project, 'src/tree.json'), scratch)), project };
}

/** Writes `<directory>/operators.json` (mode 600) with one admin, `id` with `password`; returns its path. */
export async function writeAdminOperators(
  directory: string,
  admin: { id: string; name: string; password: string },
): Promise<string> {
  const operators = join(directory, 'operators.json');
  writeFileSync(
    operators,
    JSON.stringify({
      operators: [
        {
          id: admin.id,
          name: admin.name,
          role: 'admin',
          passwordHash: await hashOperatorPassword(admin.password),
        },
      ],
    }),
  );
  chmodSync(operators, 0o600);
  return operators;
}

/** Logs in with the staff pages' operator login form. */
export async function logInOperator(page: Page, id: string, password: string): Promise<void> {
  await page.locator('#operator-login-name').fill(id);
  await page.locator('#operator-password').fill(password);
  await page.locator('#operator-login button[type=submit]').click();
}
