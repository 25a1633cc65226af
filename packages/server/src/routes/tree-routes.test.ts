import { defineComponent, defineTree, TreeAgent } from '@treeagent/core';
import { ExactEmbedder } from '@treeagent/core/test';
import { describe, expect, it } from 'vitest';
import type { TreeView } from '../api-types.js';
import { testApp, VECTORS } from '../test-support/fixtures.js';

describe('GET /api/v1/tree', () => {
  it('describes the effective tree; chunk texts only in debug mode', async () => {
    const { app } = testApp();
    const view = (await (await app.request('/api/v1/tree')).json()) as TreeView;
    expect(view).toMatchObject({ name: 'test-shop', rootId: 1, primaryAgentId: 2 });
    expect(view.nodes.map((node) => node.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const greet = view.nodes.find((node) => node.id === 3)!;
    expect(greet).toMatchObject({
      type: 'emit',
      name: 'greet',
      parentId: 2,
      children: [],
      agentId: 2,
      scope: { id: 1, kind: 'root' },
      similarityThreshold: 0.25,
      isBlocking: false,
      isAnchor: false,
      isMute: false,
      callbacks: ['emit'],
      chunkCount: 1,
    });
    expect(greet.chunks).toBeUndefined();
    expect(view.nodes.find((node) => node.id === 2)).toMatchObject({
      isPrimary: true,
      children: [3, 4, 5, 6, 7],
    });
    expect(view.nodes.find((node) => node.id === 7)).toMatchObject({ isMute: true, links: { next: 8 } });

    const debug = testApp({ debug: true });
    const debugView = (await (await debug.app.request('/api/v1/tree')).json()) as TreeView;
    expect(debugView.nodes.find((node) => node.id === 3)!.chunks).toEqual([
      { id: '3:0', text: 'hello', forRag: false, extra: {} },
    ]);
  });

  it("shows each node's component scope", async () => {
    const faq = defineComponent({
      name: 'faq',
      nodes: [
        { id: 1, type: 'head' },
        {
          id: 2,
          type: 'emit',
          parent: 1,
          chunks: ['faq'],
          emit: { message: { type: 'static', content: 'FAQ' } },
        },
      ],
    });
    const agent = new TreeAgent({
      tree: defineTree({
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, type: 'agent', parent: 1, isPrimary: true },
          { id: 10, type: 'component', parent: 2, use: faq, idBase: 100 },
        ],
      }),
      embedder: new ExactEmbedder({ vectors: VECTORS, fallback: [0, 0, 0, 0, 0] }),
    });
    const { app } = testApp({ agent });
    const view = (await (await app.request('/api/v1/tree')).json()) as TreeView;
    expect(view.nodes.find((node) => node.id === 102)).toMatchObject({
      parentId: 2,
      scope: { id: 10, kind: 'component' },
    });
  });
});

describe('POST /api/v1/route', () => {
  it('is hidden unless debug', async () => {
    const { app } = testApp();
    const response = await app.request('/api/v1/route', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'hello' }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      error: { code: 'NOT_FOUND', message: expect.stringContaining('debug') },
    });
  });

  it('returns where exploration goes and each decision, with similarities', async () => {
    const { app, agent } = testApp({ debug: true });
    const response = await app.request('/api/v1/route', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'story' }),
    });
    expect(response.status).toBe(200);
    const result = (await response.json()) as Record<string, any>;
    expect(result).toMatchObject({ nodeId: 4, nodeType: 'emit', nodeName: 'story', noMatch: false });
    expect(result.decisions[0]).toMatchObject({
      nodeId: 2,
      action: 'descend',
      best: { nodeId: 4, similarity: 1 },
    });
    expect(await agent.history('anything')).toEqual([]);

    const none = (await (
      await app.request('/api/v1/route', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ text: 'nothing' }),
      })
    ).json()) as Record<string, unknown>;
    expect(none).toMatchObject({ nodeId: 2, noMatch: true });
  });

  it('validates the body and the start node', async () => {
    const { app } = testApp({ debug: true });
    const empty = await app.request('/api/v1/route', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: '' }),
    });
    expect(empty.status).toBe(400);
    const unknown = await app.request('/api/v1/route', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'hello', startNodeId: 99 }),
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      error: { code: 'INVALID_REQUEST', details: { startNodeId: 99 } },
    });
  });
});
