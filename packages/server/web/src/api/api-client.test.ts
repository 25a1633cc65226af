import { defineTree, TreeAgent } from '@treeagent/core';
import { ExactEmbedder } from '@treeagent/core/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientEvent } from '../../../src/api-types';
import { type RunningServer, serve } from '../../../src/serve';
import { memoryLogger } from '../../../src/test-support/fixtures';
import { ApiClient } from './api-client';
import { ApiError } from './api-error';
import { sessionApi } from './session-api';
import { treeApi } from './tree-api';

/**
 * The web app's one API client against a real server (in process, on loopback): the shapes it
 * types are the ones the routes send. Node has `fetch`, streams and object URLs; `sessionStorage`
 * is missing, which the client tolerates (nothing is kept).
 */
const tree = defineTree({
  name: 'client',
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    {
      id: 3,
      type: 'emit',
      parent: 2,
      name: 'hello',
      chunks: ['hello'],
      emit: { message: { type: 'static', content: 'Hi!' }, options: ['More'] },
    },
  ],
});

let server: RunningServer;
let locked: RunningServer;

beforeAll(async () => {
  const agent = () =>
    new TreeAgent({ tree, embedder: new ExactEmbedder({ vectors: { hello: [1, 0], More: [0, 1] } }) });
  const options = { hostname: '127.0.0.1', port: 0, logger: memoryLogger() };
  server = await serve({ ...options, agent: agent(), debug: true });
  locked = await serve({ ...options, agent: agent(), apiKeys: ['sk-test'] });
});

afterAll(async () => {
  await server?.close({ timeoutMs: 1000 });
  await locked?.close({ timeoutMs: 1000 });
});

async function collect(events: AsyncIterable<ClientEvent>): Promise<ClientEvent[]> {
  const all: ClientEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('ApiClient (real server)', () => {
  it('creates a session, streams a turn as typed events, reads the history and the tree', async () => {
    const api = new ApiClient(server.url);
    const session = await sessionApi.create(api);
    expect(session).toEqual({ sessionId: expect.any(String), token: expect.any(String) });

    const events = await collect(sessionApi.send(api, { message: 'hello' }));
    expect(events[0]).toMatchObject({ type: 'turn-start', turn: 1 });
    expect(events.map((event) => event.type)).toContain('explore-decision'); // debug: true
    const end = events.at(-1);
    expect(end?.type).toBe('turn-end');
    if (end?.type !== 'turn-end') return;
    expect(end.output.messages[0]).toMatchObject({ content: 'Hi!', options: ['More'] });
    expect(Array.isArray(end.output.trace)).toBe(true);

    const history = await sessionApi.history(api);
    expect(history.map((entry) => [entry.role, entry.content])).toEqual([
      ['user', 'hello'],
      ['assistant', 'Hi!'],
    ]);
    const view = await treeApi.tree(api);
    expect(view.name).toBe('client');
    expect(view.nodes.find((node) => node.id === 3)?.chunks?.map((chunk) => chunk.text)).toEqual(['hello']);
    // Page by page, the same whole tree.
    const paged = await treeApi.tree(api, 1);
    expect(paged.nodes.map((node) => node.id)).toEqual([1, 2, 3]);
    expect(paged).toEqual(view);
    expect((await treeApi.route(api, 'hello')).nodeId).toBe(3);
  });

  it('uploads a file and downloads it back through an object URL', async () => {
    const api = new ApiClient(server.url);
    await sessionApi.create(api);
    const uploaded = await sessionApi.upload(
      api,
      new File(['month,orders\njan,42\n'], 'orders.csv', { type: 'text/csv' }),
    );
    expect(uploaded).toMatchObject({ name: 'orders.csv', size: 20, url: expect.any(String) });
    expect(sessionApi.fileUrl(api, uploaded)).toBe(uploaded.url);
    const url = await sessionApi.objectUrl(api, uploaded);
    expect(await (await fetch(url)).text()).toBe('month,orders\njan,42\n');
    expect(await sessionApi.objectUrl(api, uploaded)).toBe(url); // fetched once
  });

  it('turns error bodies into ApiErrors with their code; the API key goes with every request once set', async () => {
    const api = new ApiClient(locked.url);
    const refused = await sessionApi.create(api).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    api.setApiKey('sk-test');
    await sessionApi.create(api);
    const notDebug = await treeApi.route(api, 'hello').catch((error: unknown) => error);
    expect(notDebug).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const empty = await collect(sessionApi.send(api, { message: '   ' })).catch((error: unknown) => error);
    expect(empty).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
    const unreachable = await treeApi
      .tree(new ApiClient('http://127.0.0.1:9'))
      .catch((error: unknown) => error);
    expect(unreachable).toMatchObject({ status: 0, code: 'NETWORK' });
  });
});
