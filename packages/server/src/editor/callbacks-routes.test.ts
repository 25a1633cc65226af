import type { TreeDocument } from '@treeagent/core/document';
import { describe, expect, it } from 'vitest';
import type { CallbackDiagnostic, CallbacksModuleState, ErrorBody } from '../api-types.js';
import { operatorDirectory } from '../operators/operator-accounts.js';
import { testApp } from '../test-support/fixtures.js';
import { memoryTreeEditor } from '../test-support/memory-tree-editor.js';
import { loginOperator, testOperatorAccounts } from '../test-support/operators.js';
import type { CallbacksModuleSource } from './callbacks-module-source.js';
import { TreeEditConflict } from './tree-editor-source.js';

const document: TreeDocument = {
  format: 'treeagent-tree',
  version: 1,
  name: 'shop',
  module: './tree.callbacks.ts',
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, parent: 1, type: 'agent', isPrimary: true },
  ],
};

/**
 * A mock callbacks module (labelled: the real one, with the TypeScript compiler over a file, is the
 * CLI's `fileCallbacksModule`, tested there): a text in memory whose "type error" is the word `ERROR`.
 */
function mockCallbacksModule(text = 'export const a = 1;\n') {
  const state = { text, version: 1, writes: 0 };
  const source: CallbacksModuleSource = {
    read: async (): Promise<CallbacksModuleState> => ({
      file: './tree.callbacks.ts',
      text: state.text,
      version: `v${state.version}`,
    }),
    check: async (draft): Promise<CallbackDiagnostic[]> => {
      const start = draft.indexOf('ERROR');
      return start < 0
        ? []
        : [
            {
              file: './tree.callbacks.ts',
              line: 1,
              column: start + 1,
              message: 'Bad.',
              code: 2322,
              start,
              length: 5,
            },
          ];
    },
    write: async (draft, baseVersion) => {
      if (baseVersion !== `v${state.version}`)
        throw new TreeEditConflict('tree.callbacks.ts', `v${state.version}`);
      state.text = draft;
      state.version++;
      state.writes++;
      return `v${state.version}`;
    },
    environment: async () => ({
      modulePath: '/p/tree.callbacks.ts',
      currentDirectory: '/p',
      defaultLibLocation: '/ts/lib',
      compilerOptions: {},
      files: {},
      directories: [],
      realpaths: {},
    }),
    compilerScript: async () => 'var ts = {};',
  };
  return { source, state };
}

const json = (body: unknown, method: string, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('callbacks routes (/api/v1/editor/callbacks)', () => {
  it('reads the module, refuses a save with type errors (nothing written), saves a correct one', async () => {
    const { source, state } = mockCallbacksModule();
    const { app } = testApp({ debug: true, editor: { ...memoryTreeEditor(document), callbacks: source } });
    const read = (await (await app.request('/api/v1/editor/callbacks')).json()) as CallbacksModuleState;
    expect(read).toEqual({ file: './tree.callbacks.ts', text: 'export const a = 1;\n', version: 'v1' });

    const refused = await app.request(
      '/api/v1/editor/callbacks',
      json({ text: 'export const a: string = ERROR;\n', baseVersion: 'v1' }, 'PUT'),
    );
    expect(refused.status).toBe(422);
    const body = (await refused.json()) as ErrorBody;
    expect(body.error.code).toBe('CALLBACK_TYPE_ERRORS');
    expect(body.error.message).toContain('./tree.callbacks.ts:1:26: Bad.');
    expect(body.error.details?.diagnostics).toHaveLength(1);
    expect(state).toMatchObject({ writes: 0, text: 'export const a = 1;\n' });

    const saved = await app.request(
      '/api/v1/editor/callbacks',
      json({ text: 'export const a = 2;\n', baseVersion: 'v1' }, 'PUT'),
    );
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ version: 'v2' });
    expect(state.text).toBe('export const a = 2;\n');

    // From an old version: a conflict, nothing written.
    const stale = await app.request(
      '/api/v1/editor/callbacks',
      json({ text: 'export const a = 3;\n', baseVersion: 'v1' }, 'PUT'),
    );
    expect(stale.status).toBe(409);
    expect(state.writes).toBe(1);

    const checked = await app.request('/api/v1/editor/callbacks/check', json({ text: 'ERROR' }, 'POST'));
    expect(((await checked.json()) as { diagnostics: unknown[] }).diagnostics).toHaveLength(1);
    const compiler = await app.request('/api/v1/editor/callbacks/typescript.js');
    expect(compiler.headers.get('content-type')).toMatch(/javascript/);
  });

  it('serves the compiler with an ETag: a page that has it gets 304 and no body, a new compiler a new tag', async () => {
    const { source } = mockCallbacksModule();
    let script = 'var ts = { version: "5.9.3" };';
    const { app } = testApp({
      debug: true,
      editor: { ...memoryTreeEditor(document), callbacks: { ...source, compilerScript: async () => script } },
    });
    const path = '/api/v1/editor/callbacks/typescript.js';
    const first = await app.request(path);
    const tag = first.headers.get('etag');
    expect(first.status).toBe(200);
    expect(await first.text()).toBe(script);
    expect(tag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const again = await app.request(path, { headers: { 'If-None-Match': tag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    script = 'var ts = { version: "6.0.0" };';
    const upgraded = await app.request(path, { headers: { 'If-None-Match': tag! } });
    expect(upgraded.status).toBe(200);
    expect(upgraded.headers.get('etag')).not.toBe(tag);
    expect(await upgraded.text()).toBe(script);
  });

  it('takes no path from the request: an extra field is refused', async () => {
    const { source, state } = mockCallbacksModule();
    const { app } = testApp({ debug: true, editor: { ...memoryTreeEditor(document), callbacks: source } });
    const response = await app.request(
      '/api/v1/editor/callbacks',
      json({ text: 'x', baseVersion: 'v1', path: '/etc/passwd' }, 'PUT'),
    );
    expect(response.status).toBe(400);
    expect(state.writes).toBe(0);
  });

  it('without a callbacks module: 404 NOT_CONFIGURED saying why', async () => {
    const { app } = testApp({ debug: true, editor: memoryTreeEditor(document) });
    const response = await app.request('/api/v1/editor/callbacks');
    expect(response.status).toBe(404);
    expect(((await response.json()) as ErrorBody).error.code).toBe('NOT_CONFIGURED');
  });

  it('with operators: 401 without an admin login, 403 for an operator, 200 for an admin', async () => {
    const { source, state } = mockCallbacksModule();
    const directory = operatorDirectory(await testOperatorAccounts());
    const { app } = testApp({
      apiKeys: ['sk-admin-key'],
      editor: { ...memoryTreeEditor(document), callbacks: source },
      operators: { directory },
    });
    const key = { Authorization: 'Bearer sk-admin-key' };
    const requests: [string, RequestInit][] = [
      ['/api/v1/editor/callbacks', { headers: key }],
      ['/api/v1/editor/callbacks/types', { headers: key }],
      ['/api/v1/editor/callbacks/typescript.js', { headers: key }],
      ['/api/v1/editor/callbacks/check', json({ text: 'x' }, 'POST', key)],
      ['/api/v1/editor/callbacks', json({ text: 'x', baseVersion: 'v1' }, 'PUT', key)],
    ];
    const operator = await loginOperator(app, 'bruno', key);
    for (const [path, init] of requests) {
      const anonymous = await app.request(path, init);
      expect(anonymous.status, path).toBe(401);
      const refused = await app.request(path, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), 'X-Operator-Token': operator },
      });
      expect(refused.status, path).toBe(403);
    }
    expect(state.writes).toBe(0);
    const admin = await loginOperator(app, 'anna', key);
    const saved = await app.request(
      '/api/v1/editor/callbacks',
      json({ text: 'export const b = 1;\n', baseVersion: 'v1' }, 'PUT', {
        ...key,
        'X-Operator-Token': admin,
      }),
    );
    expect(saved.status).toBe(200);
    expect(state.writes).toBe(1);
  });
});
