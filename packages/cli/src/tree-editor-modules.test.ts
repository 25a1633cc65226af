import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InMemoryAuditLog } from '@treeagent/core/adapter';
import { formatTreeDocument, type TreeDocument } from '@treeagent/core/document';
import { operatorDirectory } from '@treeagent/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../server/src/test-support/fixtures.js';
import { loginOperator, testOperatorAccounts } from '../../server/src/test-support/operators.js';
import { fileTreeEditor } from './tree-editor-file.js';

// The attack of issue #36: an admin's draft names a "module" outside the tree's directory, and
// checking the draft imports it. Real files: the module outside writes a marker file when it runs.
const scratch = mkdtempSync(fileURLToPath(new URL('../.scratch-modules-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const treeDirectory = join(scratch, 'tree');
const outside = join(scratch, 'outside');
const marker = join(outside, 'ran');
const treePath = join(treeDirectory, 'tree.json');

const document = (module: string): TreeDocument => ({
  format: 'treeagent-tree',
  version: 1,
  name: 'shop',
  module,
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, parent: 1, type: 'agent', isPrimary: true, callbacks: { fallback: 'sorry' } },
    {
      id: 3,
      parent: 2,
      type: 'emit',
      name: 'shipping',
      chunks: ['shipping cost'],
      emit: { message: { type: 'static', content: 'Shipping is 7.90.' } },
    },
  ],
});

beforeAll(() => {
  mkdirSync(treeDirectory);
  mkdirSync(outside);
  mkdirSync(join(treeDirectory, 'callbacks'));
  const evil = `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'the module ran');\nexport function sorry() { return { nodeTarget: 3 }; }\n`;
  writeFileSync(join(outside, 'evil.mjs'), evil);
  writeFileSync(join(outside, 'evil.ts'), evil);
  // A symbolic link inside the tree's directory to the module outside it.
  symlinkSync(join(outside, 'evil.mjs'), join(treeDirectory, 'link.mjs'));
  // A directory inside that is a link to the outside one.
  symlinkSync(outside, join(treeDirectory, 'shared'));
  writeFileSync(
    join(treeDirectory, 'callbacks', 'shop.mjs'),
    'export function sorry() { return { nodeTarget: 3 }; }\n',
  );
  writeFileSync(join(treeDirectory, 'broken.mjs'), 'export function sorry( {\n');
  writeFileSync(join(treeDirectory, 'throws.mjs'), 'throw 42;\n');
  writeFileSync(join(treeDirectory, 'notes.txt'), 'export function sorry() {}\n');
  writeFileSync(treePath, formatTreeDocument(document('./callbacks/shop.mjs')), { mode: 0o600 });
});

async function editorApp() {
  const auditLog = new InMemoryAuditLog();
  const { app } = testApp({
    editor: fileTreeEditor(treePath),
    operators: { directory: operatorDirectory(await testOperatorAccounts()), auditLog },
  });
  const admin = { 'X-Operator-Token': await loginOperator(app, 'anna'), 'Content-Type': 'application/json' };
  const call = (method: string, path: string, body: unknown) =>
    app.request(`/api/v1/editor${path}`, { method, headers: admin, body: JSON.stringify(body) });
  return { app, auditLog, call };
}

describe('the modules a draft may load (issue #36)', () => {
  it('a module outside the tree directory — ../, an absolute path, a symbolic link — is a listed problem and is never imported', async () => {
    const { call } = await editorApp();
    const refused = [
      '../outside/evil.mjs',
      './callbacks/../../outside/evil.mjs',
      '../outside/evil.ts',
      join(outside, 'evil.mjs'),
      join(treeDirectory, 'callbacks', 'shop.mjs'),
      './link.mjs',
      './shared/evil.mjs',
    ];
    for (const module of refused) {
      const response = await call('POST', '/check', { document: document(module) });
      expect(response.status, module).toBe(200);
      const result = (await response.json()) as {
        valid: boolean;
        problems: { message: string; fix: string }[];
      };
      expect(result.valid, module).toBe(false);
      expect(result.problems, module).toEqual([
        {
          message: expect.stringContaining(JSON.stringify(module)),
          fix: expect.stringMatching(/inside the tree's directory/),
        },
      ]);
      // Every route that builds a draft refuses it the same way.
      const routed = await call('POST', '/route', { document: document(module), text: 'shipping cost' });
      expect(routed.status, module).toBe(422);
      expect(existsSync(marker), `${module} was imported`).toBe(false);
    }
    // Nor can it be saved: 422, the file unchanged.
    const before = readFileSync(treePath, 'utf8');
    const { version } = (await (await call('GET', '', undefined)).json()) as { version: string };
    const saved = await call('PUT', '', { document: document('../outside/evil.mjs'), baseVersion: version });
    expect(saved.status).toBe(422);
    expect(((await saved.json()) as { error: { code: string } }).error.code).toBe('INVALID_TREE');
    expect(readFileSync(treePath, 'utf8')).toBe(before);
    expect(existsSync(marker)).toBe(false);
  });

  it('a module that does not load (syntax error, throws, not a script) is a listed problem, not a 500; a module inside loads', async () => {
    const { call } = await editorApp();
    for (const [module, message] of [
      ['./broken.mjs', /Could not load the tree .*broken\.mjs/s],
      ['./throws.mjs', /Could not load the tree .*throws\.mjs/s],
      ['./notes.txt', /\.ts, \.mts, \.cts, \.js, \.mjs or \.cjs/],
      ['./missing.mjs', /does not exist/],
    ] as const) {
      const response = await call('POST', '/check', { document: document(module) });
      expect(response.status, module).toBe(200);
      const result = (await response.json()) as { valid: boolean; problems: { message: string }[] };
      expect(result.valid, module).toBe(false);
      expect(result.problems[0]?.message, module).toMatch(message);
    }
    const good = (await (
      await call('POST', '/check', { document: document('./callbacks/shop.mjs') })
    ).json()) as { valid: boolean };
    expect(good.valid).toBe(true);
  });

  it('every check and save is audited before it runs: the module named, the outcome of a save', async () => {
    const { call, auditLog } = await editorApp();
    await call('POST', '/check', { document: document('../outside/evil.mjs') });
    await call('POST', '/check', { document: document('./callbacks/shop.mjs') });
    const { version } = (await (await call('GET', '', undefined)).json()) as { version: string };
    expect((await call('PUT', '', { document: document('./link.mjs'), baseVersion: version })).status).toBe(
      422,
    );
    expect(
      (await call('PUT', '', { document: document('./callbacks/shop.mjs'), baseVersion: 'stale' })).status,
    ).toBe(409);
    const saved = await call('PUT', '', { document: document('./callbacks/shop.mjs'), baseVersion: version });
    expect(saved.status).toBe(200);
    const entries = (await auditLog.list({})).filter((entry) => entry.action.startsWith('tree.')).reverse();
    expect(entries.map((entry) => [entry.actorId, entry.action, entry.detail])).toEqual([
      ['anna', 'tree.check', { nodes: 3, module: '../outside/evil.mjs' }],
      ['anna', 'tree.check', { nodes: 3, module: './callbacks/shop.mjs' }],
      ['anna', 'tree.save', { nodes: 3, module: './link.mjs', force: false }],
      ['anna', 'tree.save-refused', { code: 'INVALID_TREE', problems: 1 }],
      ['anna', 'tree.save', { nodes: 3, module: './callbacks/shop.mjs', force: false }],
      ['anna', 'tree.save-refused', { code: 'EDIT_CONFLICT' }],
      ['anna', 'tree.save', { nodes: 3, module: './callbacks/shop.mjs', force: false }],
      ['anna', 'tree.saved', { version: expect.stringMatching(/^[0-9a-f]{16}$/), nodes: 3 }],
    ]);
    expect(existsSync(marker)).toBe(false);
  });
});
