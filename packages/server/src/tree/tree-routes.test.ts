import { defineComponent, defineTree, TreeAgent } from '@treeagent/core';
import { ExactEmbedder } from '@treeagent/core/test';
import { describe, expect, it } from 'vitest';
import type { TreeView } from '../api-types.js';
import { testApp, VECTORS } from '../test-support/fixtures.js';

describe('GET /api/v1/tree', () => {
  it('is paged: a large tree is never sent whole, and the pages cover every node once', async () => {
    const nodes: Parameters<typeof defineTree>[0]['nodes'] = [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
    ];
    for (let id = 3; id < 2503; id++)
      nodes.push({
        id,
        type: 'emit',
        parent: (id - 3) % 10 === 0 ? 2 : id - ((id - 3) % 10),
        chunks: [`c${id}`],
        emit: { message: { type: 'static', content: 'ok' } },
      });
    const agent = new TreeAgent({ tree: defineTree({ name: 'large', nodes }) });
    const { app } = testApp({ agent });
    const first = (await (await app.request('/api/v1/tree')).json()) as TreeView;
    expect(first.nodes).toHaveLength(1000);
    expect(first).toMatchObject({ totalNodes: 2502, totalChunks: 2500, offset: 0, nextOffset: 1000 });
    const seen = first.nodes.map((node) => node.id);
    for (let offset: number | null = 1000; offset !== null; ) {
      const page = (await (await app.request(`/api/v1/tree?offset=${offset}&limit=700`)).json()) as TreeView;
      seen.push(...page.nodes.map((node) => node.id));
      offset = page.nextOffset;
    }
    expect(seen).toHaveLength(2502);
    expect(new Set(seen).size).toBe(2502);
    for (const query of ['limit=0', 'limit=5001', 'offset=-1', 'other=1'])
      expect((await app.request(`/api/v1/tree?${query}`)).status, query).toBe(400);
  });

  it('needs the API key when keys are configured', async () => {
    const { app } = testApp({ apiKeys: ['sk-tree'] });
    expect((await app.request('/api/v1/tree')).status).toBe(401);
    expect((await app.request('/api/v1/tree', { headers: { Authorization: 'Bearer sk-tree' } })).status).toBe(
      200,
    );
  });

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
