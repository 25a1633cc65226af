import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defineTree, MessageType, TreeAgent, TreeAgentError } from '@treeagent/core';
import type { ChunkId } from '@treeagent/core/adapter';
import { ExactEmbedder } from '@treeagent/core/test';
import { describe, expect, test } from 'vitest';
import { cleanupsAfterEach } from '../../core/src/test-support/cleanups-after-each.js';
import { openSqlite, type SqliteStores } from './open-sqlite.js';
import { dumpTables, integrityCheck, tempDir } from './test-support/temp-dir.js';

const VECTORS: Record<string, number[]> = {
  pizza: [1, 0, 0, 0],
  docs: [0, 0, 1, 0],
  'doc one': [0, 0, 1, 0.1],
  'doc two': [0, 0, 0.8, 0.6],
  boom: [0, 1, 0, 0],
};
const CHUNK_TEXTS = Object.keys(VECTORS);

interface Seen {
  afterPizza: { topic: unknown; original: string }[];
}

/** The same tree, built afresh as a new process would. */
function buildAgent(stores: SqliteStores, seen: Seen) {
  const embedder = new ExactEmbedder({ vectors: VECTORS });
  const tree = defineTree({
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['pizza'],
        links: { confirm: 4 },
        before: (_self, context) => context.sessionState.set('topic', 'pizza'),
        emit: { message: { type: MessageType.STATIC, content: 'Which size?' }, options: ['small', 'large'] },
        after: (_self, context, _special, links) => {
          seen.afterPizza.push({
            topic: context.sessionState.get('topic'),
            original: context.input.original,
          });
          context.sessionState.set('size', context.input.original);
          return { nodeTarget: links.confirm, step: 'before' };
        },
      },
      {
        id: 4,
        type: 'emit',
        parent: 2,
        emit: (_self, context) => ({
          message: {
            type: MessageType.STATIC,
            content: `A ${context.sessionState.get('size')} ${context.sessionState.get('topic')}.`,
          },
        }),
      },
      {
        id: 5,
        type: 'query',
        parent: 2,
        chunks: [
          'docs',
          { id: 1, text: 'doc one', forRag: true, extra: { lang: 'it' } },
          { id: 'd-2', text: 'doc two', forRag: true, extra: { lang: 'en' } },
        ],
        links: { show: 6 },
        after: (_self, context, special, links) => {
          context.sessionState.set(
            'found',
            special.chunks.map((chunk) => chunk.id),
          );
          return { nodeTarget: links.show, step: 'before' };
        },
      },
      {
        id: 6,
        type: 'emit',
        parent: 2,
        emit: (_self, context) => ({
          message: {
            type: MessageType.STATIC,
            content: `Found ${(context.sessionState.get('found') as ChunkId[]).join(', ')}.`,
          },
        }),
      },
      {
        id: 7,
        type: 'emit',
        parent: 2,
        chunks: ['boom'],
        before: () => {
          throw new Error('kaboom');
        },
        emit: { message: { type: MessageType.STATIC, content: 'never' } },
      },
    ],
  });
  const agent = new TreeAgent({
    tree,
    embedder,
    sessionStore: stores.sessionStore,
    vectorStore: stores.vectorStore,
    embeddingCache: stores.embeddingCache,
  });
  return { agent, embedder };
}

const cleanups = cleanupsAfterEach();

function freshDir(): string {
  const { dir, remove } = tempDir();
  cleanups.push(remove);
  return join(dir, 'data');
}

describe('openSqlite', () => {
  test('opens one file in the data directory with the three stores on it', async () => {
    const dir = freshDir();
    const stores = openSqlite(dir);
    expect(stores.file).toBe(join(dir, 'treeagent.db'));
    expect(existsSync(stores.file)).toBe(true);
    await stores.sessionStore.close();
    // The file stays open for the other stores until all are closed.
    await stores.vectorStore.upsert('c', [{ id: 1, text: 't', vector: Float32Array.from([1]), payload: {} }]);
    await stores.close();
    expect(stores.database.isOpen).toBe(false);
    expect(Object.keys(dumpTables(stores.file))).toEqual([
      'audit_log',
      'callback_request',
      'canned_response',
      'channel_receipts',
      'embeddings',
      'file_chunks',
      'files',
      'handoff_queue',
      'knowledge_pages',
      'knowledge_sources',
      'operator_presence',
      'operator_sessions',
      'satisfaction_rating',
      'schema_version',
      'session_history',
      'session_locks',
      'session_tokens',
      'sessions',
      'team_rotation',
      'tree_environment_history',
      'tree_environments',
      'tree_session_versions',
      'tree_versions',
      'turn_facts',
      'vector_collections',
      'vector_points',
    ]);
  });

  test('a conversation resumes at the right node with its state after the file is closed and reopened', async () => {
    const dir = freshDir();
    const seen: Seen = { afterPizza: [] };

    const first = openSqlite(dir);
    const { agent: agentA } = buildAgent(first, seen);
    const one = await agentA.send('s', 'pizza');
    expect(one.messages.map((message) => message.content)).toEqual(['Which size?']);
    expect(one.nodeId).toBe(3);
    await first.close();

    // "Restart": new stores, new agent, same directory.
    const second = openSqlite(dir);
    cleanups.push(() => second.close());
    const { agent: agentB, embedder: embedderB } = buildAgent(second, seen);
    expect(await second.sessionStore.load('s')).toMatchObject({
      version: 1,
      turn: 1,
      lastNodeId: 3,
      state: { topic: 'pizza' },
    });
    const two = await agentB.send('s', 'large', { selectedOption: 'large' });
    expect(seen.afterPizza).toEqual([{ topic: 'pizza', original: 'large' }]);
    expect(two.turn).toBe(2);
    expect(two.messages.map((message) => message.content)).toEqual(['A large pizza.']);

    // The query node searches the vectors stored by the first process; ids keep their types.
    const three = await agentB.send('s', 'docs');
    expect(three.messages.map((message) => message.content)).toEqual(['Found 1, d-2.']);
    expect((await second.sessionStore.load('s'))!.state.found).toEqual([1, 'd-2']);

    // The chunk embeddings came from the file: the new embedder never saw a chunk text.
    expect(embedderB.calls.flat().filter((text) => CHUNK_TEXTS.includes(text))).toEqual([]);
    expect((await agentB.history('s')).map((item) => item.content)).toEqual([
      'pizza',
      'Which size?',
      'large',
      'A large pizza.',
      'docs',
      'Found 1, d-2.',
    ]);
  });

  test('a turn that throws saves nothing of itself: only the position is cleared', async () => {
    const dir = freshDir();
    const stores = openSqlite(dir);
    cleanups.push(() => stores.close());
    const { agent } = buildAgent(stores, { afterPizza: [] });
    await agent.send('s', 'pizza');
    await agent.send('s', 'large');
    const before = dumpTables(stores.file);
    const error = await agent.send('s', 'boom').catch((e: unknown) => e);
    expect(TreeAgentError.hasCode(error, 'CALLBACK_ERROR')).toBe(true);
    const after = dumpTables(stores.file);
    // The history and every other table are as they were; the session row only lost its position
    // (the recovery policy: the next message starts from the primary agent). The failed turn left
    // only its analytics row (status error, docs/analytics.md).
    expect({ ...after, sessions: [], turn_facts: [] }).toEqual({ ...before, sessions: [], turn_facts: [] });
    expect(after.turn_facts).toEqual([
      ...(before.turn_facts as unknown[]),
      expect.objectContaining({ turn: 3, status: 'error', error_code: 'CALLBACK_ERROR' }),
    ]);
    const [row] = after.sessions as { record: string }[];
    expect(JSON.parse(row!.record)).toMatchObject({ lastNodeId: null, pendingMessage: null });
    expect(after.session_locks).toEqual([]);
    expect(integrityCheck(stores.file)).toBe('ok');
    // And the session carries on.
    const next = await agent.send('s', 'pizza');
    expect(next.turn).toBe(3);
  });

  test("users' messages leave no vectors in the file by default, only the chunks' (messageEmbeddings: 'memory')", async () => {
    const dir = freshDir();
    const stores = openSqlite(dir);
    cleanups.push(() => stores.close());
    const { agent } = buildAgent(stores, { afterPizza: [] });
    await agent.ready();
    await stores.embeddingCache.flush();
    const chunks = (dumpTables(stores.file).embeddings as unknown[]).length;
    expect(chunks).toBeGreaterThan(0);
    // Texts the embedder has no vector for get a hashed one; each is new to the cache.
    await agent.send('s', 'pizza');
    await agent.send('s', 'large');
    await agent.send('t', 'docs');
    await agent.send('u', 'a message no one wrote before');
    await stores.embeddingCache.flush();
    expect((dumpTables(stores.file).embeddings as unknown[]).length).toBe(chunks);
  });
});
