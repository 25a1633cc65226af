import type { TreeDocument } from '@treeagent/core/document';
import { ScriptedLanguageModel } from '@treeagent/core/test';
import { describe, expect, it } from 'vitest';
import type { EditorChunkSuggestionsResponse, ErrorBody } from '../api-types.js';
import {
  EDITOR_EXPORTS,
  EDITOR_TREE,
  editorBehindLogins,
  jsonRequest,
} from '../test-support/editor-fixtures.js';
import { testApp } from '../test-support/fixtures.js';
import { memoryTreeEditor } from '../test-support/memory-tree-editor.js';
import { suggestChunks } from './chunk-suggestions.js';

// The shop tree with one shipping chunk: the suggestions add to it.
const document: TreeDocument = {
  ...EDITOR_TREE,
  nodes: EDITOR_TREE.nodes.map((node) =>
    node.id === 3 ? { ...node, chunks: ['how much does shipping cost'] } : node,
  ),
};
const exports = EDITOR_EXPORTS;
const utterances: [string, string][] = [
  ['shipping cost to italy', 'shipping'],
  ['what does delivery cost', 'shipping'],
  ['delivery price please', 'shipping'],
  ['return my shoes', 'returns'],
];
const post = (body: unknown, headers: Record<string, string> = {}) => jsonRequest(body, 'POST', headers);

describe('suggest chunks (POST /api/v1/editor/suggest-chunks)', () => {
  it("asks the model (scripted, a mock) with the node's and its siblings' chunks, and returns new chunks with the eval's change", async () => {
    const model = new ScriptedLanguageModel({
      answers: [
        '{"chunks": ["what does delivery cost", "How much does shipping cost", "delivery price please", "shipping cost to italy"]}',
      ],
    });
    const editor = { ...memoryTreeEditor(document, exports, utterances), suggestionModel: model };
    const { app } = testApp({ debug: true, editor });
    const response = await app.request('/api/v1/editor/suggest-chunks', post({ document, nodeId: 3 }));
    expect(response.status).toBe(200);
    const result = (await response.json()) as EditorChunkSuggestionsResponse;
    const prompt = JSON.stringify(model.calls[0]);
    expect(prompt).toContain('how much does shipping cost');
    expect(prompt).toContain('send back an item for a refund');
    expect(result.source).toBe('model');
    // The existing chunk (in another case) is left out.
    expect(result.suggestions.map((item) => item.text)).toEqual([
      'what does delivery cost',
      'delivery price please',
      'shipping cost to italy',
    ]);
    expect(result.evaluation).not.toBeNull();
    expect(result.evaluation!.utterances).toBe(4);
    // The labelled utterances are now chunks of the node: its recall cannot drop, and here it rises.
    expect(result.evaluation!.recallAfter!).toBeGreaterThan(result.evaluation!.recallBefore!);
    expect(result.evaluation!.accuracyAfter).toBeGreaterThanOrEqual(result.evaluation!.accuracyBefore);
  });

  it('refuses a draft that does not build (422, nothing asked) and a node that is not there', async () => {
    const model = new ScriptedLanguageModel({ answers: ['{"chunks": []}'] });
    const { app } = testApp({
      debug: true,
      editor: { ...memoryTreeEditor(document, exports), suggestionModel: model },
    });
    const broken = { ...document, nodes: [...document.nodes, { id: 9, parent: 77, type: 'emit' }] };
    const refused = await app.request('/api/v1/editor/suggest-chunks', post({ document: broken, nodeId: 3 }));
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as ErrorBody).error.code).toBe('INVALID_TREE');
    const missing = await app.request('/api/v1/editor/suggest-chunks', post({ document, nodeId: 42 }));
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as ErrorBody).error.message).toContain('no node 42');
    expect(model.calls).toHaveLength(0);
  });

  it('with operators: admins only (401 without a login, 403 for an operator)', async () => {
    const { app, key, login } = await editorBehindLogins(memoryTreeEditor(document, exports));
    const anonymous = await app.request('/api/v1/editor/suggest-chunks', post({ document, nodeId: 3 }, key));
    expect(anonymous.status).toBe(401);
    const operator = await login('bruno');
    const refused = await app.request(
      '/api/v1/editor/suggest-chunks',
      post({ document, nodeId: 3 }, { ...key, 'X-Operator-Token': operator }),
    );
    expect(refused.status).toBe(403);
    const admin = await login('anna');
    const allowed = await app.request(
      '/api/v1/editor/suggest-chunks',
      post({ document, nodeId: 3 }, { ...key, 'X-Operator-Token': admin }),
    );
    expect(allowed.status).toBe(200);
  });
});

describe('suggestChunks without a model', () => {
  it("offers the unmatched messages closer to the node's chunks than to a sibling's, most frequent first", async () => {
    // Mock dependencies (labelled): 2-d vectors, one axis per intent.
    const axis: Record<string, [number, number]> = {
      'how much does shipping cost': [1, 0],
      'how do I return a product': [0, 1],
      'send back an item for a refund': [0, 1],
      'shipping to spain': [0.9, 0.1],
      'postage fees': [0.8, 0.2],
      'refund my order': [0.1, 0.9],
    };
    const result = await suggestChunks(document, 3, {
      model: null,
      unmatched: async () => [
        { message: 'refund my order', count: 9 },
        { message: 'postage fees', count: 5 },
        { message: 'shipping to spain', count: 2 },
      ],
      embed: async (texts) => texts.map((text) => Float32Array.from(axis[text] ?? [0, 0])),
      evaluate: async () => null,
    });
    expect(result.source).toBe('unmatched');
    expect(result.suggestions).toEqual([
      { text: 'postage fees', count: 5 },
      { text: 'shipping to spain', count: 2 },
    ]);
    expect(result.evaluation).toBeNull();
  });
});
