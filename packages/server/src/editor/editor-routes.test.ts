import { describe, expect, it } from 'vitest';
import type {
  EditorAmbiguityResponse,
  EditorCheckResponse,
  EditorRouteResponse,
  EditorState,
  EditorSuggestionsResponse,
  ErrorBody,
} from '../api-types.js';
import {
  EDITOR_EXPORTS,
  EDITOR_TREE,
  editorBehindLogins,
  jsonRequest,
} from '../test-support/editor-fixtures.js';
import { createSession, testApp } from '../test-support/fixtures.js';
import { memoryTreeEditor } from '../test-support/memory-tree-editor.js';

const document = EDITOR_TREE;
const exports = EDITOR_EXPORTS;
const json = jsonRequest;

describe('the tree editor API', () => {
  it('reads the file: document, version, the callback names to pick from', async () => {
    const { app } = testApp({ debug: true, editor: memoryTreeEditor(document, exports) });
    const response = await app.request('/api/v1/editor');
    expect(response.status).toBe(200);
    const state = (await response.json()) as EditorState;
    expect(state).toMatchObject({
      editable: true,
      callbacks: ['sorry'],
      utterances: 0,
      path: '/memory/tree.json',
    });
    expect(state.document.nodes).toHaveLength(4);
    expect(state.version).toMatch(/^[0-9a-f]{16}$/);
  });

  it('a read-only tree (defined in code) is checked as loaded; a draft that differs from it is refused', async () => {
    const memory = memoryTreeEditor(document, exports);
    const reason = 'This tree is defined in code (tree.ts). Convert it once with "treeagent export".';
    // As the CLI's source of a code tree: read-only, and built as loaded whatever the draft.
    const loaded = await memory.build(document);
    const readOnly = {
      ...memory,
      read: async () => ({ ...(await memory.read()), editable: false, readOnlyReason: reason }),
      build: async () => loaded,
    };
    const { app } = testApp({ debug: true, editor: readOnly });
    const same = (await (
      await app.request('/api/v1/editor/check', json({ document }))
    ).json()) as EditorCheckResponse;
    expect(same.valid).toBe(true);
    const duplicate = { ...document, nodes: [...document.nodes, { ...document.nodes[0]! }] };
    const other = { ...document, nodes: document.nodes.slice(0, 3) };
    for (const draft of [duplicate, other]) {
      const checked = (await (
        await app.request('/api/v1/editor/check', json({ document: draft }))
      ).json()) as EditorCheckResponse;
      expect(checked).toMatchObject({ valid: false, tree: null });
      expect(checked.problems).toEqual([
        {
          message: 'The draft differs from the tree, which is read-only here: it is not checked.',
          fix: reason,
        },
      ]);
    }
    const routed = await app.request('/api/v1/editor/route', json({ document: other, text: 'shipping' }));
    expect(routed.status).toBe(422);
  });

  it('checks a draft: problems naming the node and the fix, or the effective tree and lint', async () => {
    const { app } = testApp({ debug: true, editor: memoryTreeEditor(document, exports) });
    const broken = {
      ...document,
      nodes: [
        ...document.nodes,
        { id: 5, parent: 2, type: 'emit', similarityThreshold: 3, callbacks: { after: 'nope' } },
      ],
    };
    const bad = (await (
      await app.request('/api/v1/editor/check', json({ document: broken }))
    ).json()) as EditorCheckResponse;
    expect(bad.valid).toBe(false);
    expect(bad.tree).toBeNull();
    expect(bad.problems).toContainEqual(
      expect.objectContaining({
        nodeId: 5,
        message:
          'at /nodes/4/similarityThreshold (node 5): similarityThreshold must be from -1 to 1; it is 3.',
      }),
    );
    const unknownCallback = {
      ...document,
      nodes: [
        ...document.nodes,
        { id: 5, parent: 2, type: 'emit', chunks: ['x'], callbacks: { after: 'nope' } },
      ],
    };
    const missing = (await (
      await app.request('/api/v1/editor/check', json({ document: unknownCallback }))
    ).json()) as EditorCheckResponse;
    expect(missing.problems[0]).toMatchObject({
      nodeId: 5,
      message: expect.stringContaining('callbacks.after is "nope"'),
    });

    const good = (await (
      await app.request('/api/v1/editor/check', json({ document }))
    ).json()) as EditorCheckResponse;
    expect(good.valid).toBe(true);
    expect(good.tree?.nodes.map((node) => node.id)).toEqual([1, 2, 3, 4]);
    expect(good.tree?.nodes[2]?.chunks?.[0]?.text).toBe('how much does shipping cost');
    expect(Array.isArray(good.lint)).toBe(true);
  });

  it('routes a message through the draft: the node, every decision, a heat map over the nodes', async () => {
    const { app } = testApp({ debug: true, editor: memoryTreeEditor(document, exports) });
    const response = await app.request(
      '/api/v1/editor/route',
      json({ document, text: 'what does shipping cost?' }),
    );
    expect(response.status).toBe(200);
    const result = (await response.json()) as EditorRouteResponse;
    expect(result.route).toMatchObject({ nodeId: 3, nodeName: 'shipping', noMatch: false });
    expect(result.route.decisions[0]).toMatchObject({ type: 'explore-decision', nodeId: 2, nextNodeId: 3 });
    const heat = new Map(result.heat.map((item) => [item.nodeId, item]));
    expect(heat.get(3)!.similarity).toBeGreaterThan(heat.get(4)!.similarity);
    expect(heat.get(3)!.chunk).toBe('how much does shipping cost');

    // The draft, not the served tree: a threshold raised in the draft declines the same message.
    const strict = {
      ...document,
      nodes: document.nodes.map((node) => (node.id === 2 ? { ...node, similarityThreshold: 0.99 } : node)),
    };
    const declined = (await (
      await app.request('/api/v1/editor/route', json({ document: strict, text: 'what does shipping cost?' }))
    ).json()) as EditorRouteResponse;
    expect(declined.route).toMatchObject({ nodeId: 2, noMatch: true });
  });

  it("a node's closest sibling chunks, most similar first", async () => {
    const { app } = testApp({ debug: true, editor: memoryTreeEditor(document, exports) });
    const result = (await (
      await app.request('/api/v1/editor/ambiguity', json({ document, nodeId: 3 }))
    ).json()) as EditorAmbiguityResponse;
    expect(result.pairs.length).toBe(4);
    expect(result.pairs.every((pair) => pair.otherNodeId === 4)).toBe(true);
    const similarities = result.pairs.map((pair) => pair.similarity);
    expect(similarities).toEqual([...similarities].sort((a, b) => b - a));
  });

  it('suggests thresholds from the labelled utterances, as treeagent eval does', async () => {
    const utterances: [string, string][] = [];
    for (let i = 0; i < 10; i++) {
      utterances.push(
        [`shipping cost ${i}`, 'shipping'],
        [`return a product ${i}`, 'returns'],
        [`the weather ${i}`, 'none'],
      );
    }
    const { app } = testApp({ debug: true, editor: memoryTreeEditor(document, exports, utterances) });
    const result = (await (
      await app.request('/api/v1/editor/suggestions', json({ document }))
    ).json()) as EditorSuggestionsResponse;
    expect(result.utterances).toBe(30);
    expect(result.suggestions).toContainEqual(
      expect.objectContaining({ nodeId: 2, suggested: expect.any(Number) }),
    );
  });

  it('saves a valid draft with the stable layout; refuses an invalid one and a stale version', async () => {
    const source = memoryTreeEditor(document, exports);
    const { app } = testApp({ debug: true, editor: source });
    const { version } = (await (await app.request('/api/v1/editor')).json()) as EditorState;
    const edited = {
      ...document,
      nodes: document.nodes.map((node) => (node.id === 3 ? { ...node, similarityThreshold: 0.4 } : node)),
    };

    const invalid = await app.request(
      '/api/v1/editor',
      json({ document: { ...document, nodes: [] }, baseVersion: version }, 'PUT'),
    );
    expect(invalid.status).toBe(422);
    const invalidBody = (await invalid.json()) as ErrorBody;
    expect(invalidBody.error.code).toBe('INVALID_TREE');
    expect(invalidBody.error.details?.problems?.length).toBeGreaterThan(0);

    const saved = await app.request(
      '/api/v1/editor',
      json({ document: edited, baseVersion: version }, 'PUT'),
    );
    expect(saved.status).toBe(200);
    const { version: next } = (await saved.json()) as { version: string };
    expect(next).not.toBe(version);
    expect(source.text).toContain('"similarityThreshold": 0.4');
    expect(source.text.endsWith('\n')).toBe(true);

    const stale = await app.request('/api/v1/editor', json({ document, baseVersion: version }, 'PUT'));
    expect(stale.status).toBe(409);
    const conflict = (await stale.json()) as ErrorBody;
    expect(conflict.error).toMatchObject({ code: 'EDIT_CONFLICT', details: { version: next } });
    expect(conflict.error.message).toMatch(/changed on disk.*Reload/);
    expect(await (await app.request('/api/v1/editor/version')).json()).toEqual({ version: next });
    const forced = await app.request(
      '/api/v1/editor',
      json({ document, baseVersion: version, force: true }, 'PUT'),
    );
    expect(forced.status).toBe(200);
  });
  it('two saves from the same version at once: one is written, the other is refused as a conflict', async () => {
    const source = memoryTreeEditor(document, exports);
    const { app } = testApp({ debug: true, editor: source });
    const { version } = (await (await app.request('/api/v1/editor')).json()) as EditorState;
    const named = (name: string) => ({
      ...document,
      nodes: document.nodes.map((node) => (node.id === 3 ? { ...node, name } : node)),
    });
    const answers = await Promise.all(
      ['postage', 'delivery'].map((name) =>
        app.request('/api/v1/editor', json({ document: named(name), baseVersion: version }, 'PUT')),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const winner = answers[0]!.status === 200 ? 'postage' : 'delivery';
    expect(JSON.parse(source.text).nodes[2].name).toBe(winner);
  });

  it('follows the version on disk as server-sent events: now, and after a change made elsewhere', async () => {
    const source = memoryTreeEditor(document, exports);
    const { app } = testApp({ debug: true, editor: source });
    const response = await app.request('/api/v1/editor/events');
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const nextVersion = async () => {
      for (;;) {
        const match = /event: version\ndata: (.*)\n\n/.exec(text);
        if (match) {
          text = text.slice(match.index + match[0].length);
          return (JSON.parse(match[1]!) as { version: string }).version;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        text += value;
      }
    };
    const first = await nextVersion();
    expect(first).toBe(await source.version());
    // Changed behind the editor's back (the memory source cannot watch: the server polls it).
    source.text = source.text.replace('Shipping is 7.90.', 'Shipping is 9.90.');
    const second = await nextVersion();
    expect(second).not.toBe(first);
    expect(second).toBe(await source.version());
    await reader.cancel();
  });
});

describe('who may edit the tree', () => {
  it('nobody, without admin logins or debug mode: createApp refuses the editor', () => {
    expect(() => testApp({ debug: false, editor: memoryTreeEditor(document, exports) })).toThrow(
      /needs admin logins/,
    );
  });

  it('without the editor option there is no editor API', async () => {
    const { app } = testApp({ debug: true });
    expect((await app.request('/api/v1/editor')).status).toBe(404);
  });

  it('with operators: admins only; a session token, an API key or an operator login cannot reach it', async () => {
    const { app, key, login } = await editorBehindLogins(memoryTreeEditor(document, exports));
    const session = await createSession(app, key);
    const paths: [string, RequestInit][] = [
      ['/api/v1/editor', { headers: key }],
      ['/api/v1/editor/events', { headers: key }],
      ['/api/v1/editor/check', json({ document }, 'POST', key)],
      ['/api/v1/editor', json({ document, baseVersion: 'x' }, 'PUT', key)],
    ];
    for (const [path, init] of paths) {
      // The API key alone, a session token, a session token passed as an operator token.
      const extras: Record<string, string>[] = [
        {},
        { 'X-Session-Token': session.token },
        { 'X-Operator-Token': session.token },
      ];
      for (const extra of extras) {
        const response = await app.request(path, {
          ...init,
          headers: { ...(init.headers as Record<string, string>), ...extra },
        });
        expect(response.status, `${path} ${JSON.stringify(extra)}`).toBe(401);
        expect(((await response.json()) as ErrorBody).error.code).toBe('OPERATOR_LOGIN_REQUIRED');
      }
      // A session token as the bearer: not an API key.
      const bearer = await app.request(path, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${session.token}` },
      });
      expect(bearer.status).toBe(401);
    }
    const operator = await login('bruno');
    const refused = await app.request('/api/v1/editor', {
      headers: { ...key, 'X-Operator-Token': operator },
    });
    expect(refused.status).toBe(403);
    const refusedEvents = await app.request('/api/v1/editor/events', {
      headers: { ...key, 'X-Operator-Token': operator },
    });
    expect(refusedEvents.status).toBe(403);
    const admin = await login('anna');
    const allowed = await app.request('/api/v1/editor', { headers: { ...key, 'X-Operator-Token': admin } });
    expect(allowed.status).toBe(200);
  });
});
