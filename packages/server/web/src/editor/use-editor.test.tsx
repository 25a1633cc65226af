// @vitest-environment happy-dom
import type { TreeDocument } from '@treeagent/core/client';
import { act } from 'preact/test-utils';
import { describe, expect, it } from 'vitest';
import type { EditorCheckResponse, EditorState } from '../../../src/api-types';
import { ApiClient } from '../api/api-client';
import { renderInApp } from '../test-support/render';
import { announceModuleSaved } from './callbacks/callback-requests';
import { type TreeEditor, useEditor } from './use-editor';

/**
 * The editor's state against a scripted server (a mock, labelled: an `ApiClient` whose requests the
 * test answers). The page itself, on a real `treeagent dev`, is editor-callbacks.browser.test.ts.
 */
class ScriptedEditorServer extends ApiClient {
  exports = ['greet'];
  checks = 0;
  readonly document: TreeDocument = {
    name: 'shop',
    module: './shop.callbacks.ts',
    nodes: [{ id: 1, type: 'root' }],
  } as TreeDocument;

  override async request(path: string, init: RequestInit = {}): Promise<Response> {
    if (path === '/api/v1/editor') {
      const state: EditorState = {
        path: '/project/shop.json',
        version: 'v1',
        document: this.document,
        callbacks: [...this.exports],
        editable: true,
        readOnlyReason: null,
        utterances: 0,
      };
      return Response.json(state);
    }
    if (path === '/api/v1/editor/check') {
      this.checks += 1;
      const result: EditorCheckResponse = { valid: true, problems: [], lint: [], tree: null };
      return Response.json(result);
    }
    if (path === '/api/v1/editor/events') return new Response(new ReadableStream(), { status: 200 });
    throw new Error(`The scripted server has no ${init.method ?? 'GET'} ${path}.`);
  }
}

const settle = (ms = 30) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

async function renderEditor(api: ScriptedEditorServer) {
  const view: { editor: TreeEditor | null } = { editor: null };
  function Harness() {
    view.editor = useEditor();
    return null;
  }
  await renderInApp(<Harness />, { api });
  await settle();
  return view as { editor: TreeEditor };
}

describe('the editor after the Callbacks panel saved the module', () => {
  it('lists the module’s new exports and checks the draft again, keeping the draft', async () => {
    const api = new ScriptedEditorServer();
    const view = await renderEditor(api);
    expect(view.editor.file?.callbacks).toEqual(['greet']);
    await act(() => view.editor.edit((document) => ({ ...document, name: 'shop-draft' })));
    await settle(600);
    const checksBefore = api.checks;
    expect(checksBefore).toBeGreaterThan(0);

    api.exports = ['greet', 'beforeOrders'];
    await act(() => announceModuleSaved());
    await settle(); // the exports are read again; the new check is scheduled as this act ends
    await settle(600);

    expect(view.editor.file?.callbacks).toEqual(['greet', 'beforeOrders']);
    expect(view.editor.document?.name).toBe('shop-draft');
    expect(view.editor.dirty).toBe(true);
    expect(api.checks).toBeGreaterThan(checksBefore);
  });
});
