import {
  type BaseQueryOutput,
  defineTree,
  InMemoryVectorStore,
  MessageType,
  type QueryAfterSpecial,
  TreeAgent,
} from '@treeagent/core';
import type { VectorStore } from '@treeagent/core/adapter';
import { ExactEmbedder, ScriptedLanguageModel } from '@treeagent/core/test';
import { beforeEach, describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../core/src/test-support/cleanups-after-each.js';
import { PgVectorStore, PostgresSessionStore } from './index.js';
import { requireDatabase, TEST_DATABASE_URL, testSchema } from './test-support/database.js';

/** TreeAgent end to end on PostgreSQL: query nodes on PgVectorStore, sessions in PostgresSessionStore. */

const cleanups = cleanupsAfterEach();
beforeEach(requireDatabase);

const VECTORS: Record<string, number[]> = {
  alpha: [1, 0, 0, 0, 0, 0],
  docs: [0, 0, 1, 0, 0, 0],
  find: [0, 0, 0, 0, 1, 0],
  'doc one': [0, 0, 0, 0, 1, 0],
  'doc two': [0, 0, 0, 0, 0.8, 0.6],
  'doc three': [0, 0, 0, 0, 0.6, 0.8],
  'doc four': [0, 0, 0, 0, 0, 1],
};
const DOCS = [
  { id: 'd1', text: 'doc one', forRag: true, extra: { lang: 'en', year: 2020, tags: ['a'] } },
  { id: 'd2', text: 'doc two', forRag: true, extra: { lang: 'it', year: 2021, tags: ['a', 'b'] } },
  { id: 'd3', text: 'doc three', forRag: true, extra: { lang: 'en', year: 2022, tags: [] } },
  { id: 7, text: 'doc four', forRag: true, extra: { lang: 'en', year: 2023 } },
];

function agent(query: BaseQueryOutput, vectorStore: VectorStore, specials: QueryAfterSpecial[], extra = {}) {
  return new TreeAgent({
    tree: defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: ['alpha'],
          emit: { message: { type: MessageType.STATIC, content: 'A' } },
        },
        {
          id: 5,
          type: 'query',
          parent: 2,
          chunks: ['docs', ...DOCS],
          links: { answer: 6 },
          query: () => query,
          after: (_self, _context, special, links) => {
            specials.push(special);
            return { nodeTarget: links.answer, step: 'before' };
          },
        },
        { id: 6, type: 'emit', parent: 2, emit: { message: { type: MessageType.STATIC, content: 'done' } } },
      ],
    }),
    embedder: new ExactEmbedder({ vectors: VECTORS }),
    models: new ScriptedLanguageModel({ answers: 'answer' }),
    vectorStore,
    ...extra,
  });
}

const QUERIES: BaseQueryOutput[] = [
  { query: 'find' },
  { query: 'find', threshold: 0.7 },
  { query: 'find', threshold: -1, chunkQty: 10, blackList: ['d2'] },
  { query: 'find', filter: { must: [{ key: 'year', range: { gte: 2021 } }] } },
  { query: 'find', threshold: -1, filter: { must_not: [{ is_empty: { key: 'tags' } }] } },
  { chunkQty: 2 },
  { chunkQty: 2, offset: 's:d2' },
  { chunkQty: 10, filter: { must: [{ key: 'lang', match: { value: 'en' } }] } },
];

describe('TreeAgent with PgVectorStore and PostgresSessionStore', () => {
  for (const exploreIn of ['memory', 'vector-store'] as const) {
    it(`query nodes retrieve what they retrieve in memory (exploreIn: ${exploreIn})`, async () => {
      const { schema, drop } = testSchema(`agent-${exploreIn}`);
      const vectorStore = new PgVectorStore({ connection: TEST_DATABASE_URL, schema, dimensions: 6 });
      const sessionStore = new PostgresSessionStore({ connection: TEST_DATABASE_URL, schema });
      cleanups.push(async () => {
        await Promise.all([vectorStore.close(), sessionStore.close()]);
        await drop();
      });
      for (const [i, query] of QUERIES.entries()) {
        const inPg: QueryAfterSpecial[] = [];
        const inMemory: QueryAfterSpecial[] = [];
        await agent(query, vectorStore, inPg, { sessionStore, exploreIn }).send(`s${i}`, 'docs');
        await agent(query, new InMemoryVectorStore(), inMemory, { exploreIn }).send(`s${i}`, 'docs');
        expect(inPg).toHaveLength(1);
        const strip = (special: QueryAfterSpecial) => ({
          ...special,
          chunks: special.chunks.map(({ similarity, ...chunk }) => ({
            ...chunk,
            similarity: similarity && Math.round(similarity * 1e5),
          })),
        });
        expect({ query, special: strip(inPg[0]!) }).toEqual({ query, special: strip(inMemory[0]!) });
        expect((await sessionStore.load(`s${i}`))!.turn).toBe(1);
      }
    });
  }
});

describe('the threshold boundary on pgvector (docs/concepts.md §10: SIMILARITY_TOLERANCE)', () => {
  const cases: [number, number[]][] = [
    [0.6, [0.6, 0.8, 0, 0]],
    [0.8, [0.8, 0.6, 0, 0]],
    [0.5, [0.5, Math.sqrt(0.75), 0, 0]],
  ];
  it('a cosine equal to the threshold does not descend, as in memory', async () => {
    const { schema, drop } = testSchema('threshold');
    const vectorStore = new PgVectorStore({ connection: TEST_DATABASE_URL, schema, dimensions: 4 });
    cleanups.push(async () => {
      await vectorStore.close();
      await drop();
    });
    for (const [threshold, chunk] of cases) {
      const tree = defineTree({
        name: `threshold-${threshold}`,
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, type: 'agent', parent: 1, isPrimary: true, similarityThreshold: threshold },
          {
            id: 3,
            type: 'emit',
            parent: 2,
            chunks: ['chunk'],
            emit: { message: { type: MessageType.STATIC, content: 'in' } },
          },
        ],
      });
      const embedder = new ExactEmbedder({ vectors: { chunk, message: [1, 0, 0, 0] } });
      const inPg = new TreeAgent({ tree, embedder, vectorStore, exploreIn: 'vector-store' });
      const inMemory = new TreeAgent({ tree, embedder });
      expect((await inPg.route('message')).node.id).toBe(2);
      expect((await inMemory.route('message')).node.id).toBe(2);
    }
  });
});
