import { describe, expect, it } from 'vitest';
import {
  type AgentOutput,
  type BaseQueryOutput,
  Blacklist,
  defineTree,
  InMemoryVectorStore,
  MessageType,
  type QueryAfterSpecial,
  type RetrievedChunk,
  type Self,
  TreeAgent,
  TreeAgentError,
} from '../../index.js';
import { ExactEmbedder, ScriptedLanguageModel } from '../../test/index.js';

// Dimensions 0–2 route; 4–5 hold the documents. Similarities to "find": d1 1, d2 0.8, d3 0.6, d4 0.
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
  { id: 'd1', text: 'doc one', forRag: true, extra: { lang: 'en', year: 2020 } },
  { id: 'd2', text: 'doc two', forRag: true, extra: { lang: 'it', year: 2021 } },
  { id: 'd3', text: 'doc three', forRag: true, extra: { lang: 'en', year: 2022 } },
  { id: 'd4', text: 'doc four', forRag: true, extra: { lang: 'en', year: 2023 } },
];

type QueryDefinition = BaseQueryOutput | ((self: Self) => BaseQueryOutput) | undefined;

/** Query node 5 (routed to by "docs", or by its documents), whose after goes to emit 6. */
function queryAgent(
  query: QueryDefinition,
  specials: QueryAfterSpecial[],
  retrieved: RetrievedChunk[][] = [],
  exploreForRagChunks?: boolean,
) {
  return new TreeAgent({
    tree: defineTree({
      nodes: [
        { id: 1, type: 'root', exploreForRagChunks },
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
          query: typeof query === 'function' ? (self) => query(self) : query,
          after: (_self, _context, special, links) => {
            specials.push(special);
            return { nodeTarget: links.answer, step: 'before' };
          },
        },
        {
          id: 6,
          type: 'emit',
          parent: 2,
          prompt: (_self, _context, special) => {
            retrieved.push(special.retrieved);
            return { prompt: 'answer from the documents' };
          },
        },
      ],
    }),
    embedder: new ExactEmbedder({ vectors: VECTORS }),
    models: new ScriptedLanguageModel({ answers: 'answer' }),
  });
}

const ids = (special: QueryAfterSpecial | undefined) => special?.chunks.map((chunk) => chunk.id);

async function search(query: QueryDefinition): Promise<{ special: QueryAfterSpecial; output: AgentOutput }> {
  const specials: QueryAfterSpecial[] = [];
  const output = await queryAgent(query, specials).send('s', 'docs');
  return { special: specials[0]!, output };
}

describe('query node: search', () => {
  it('returns at most chunkQty (3) chunks with similarity ≥ threshold (0.25) by default, best first', async () => {
    const { special, output } = await search(() => ({ query: 'find' }));
    expect(ids(special)).toEqual(['d1', 'd2', 'd3']);
    expect(special.query).toBe('find');
    expect(special.nextOffset).toBeNull();
    expect(special.chunks[0]).toMatchObject({ id: 'd1', text: 'doc one', extra: { lang: 'en', year: 2020 } });
    expect(special.chunks[0]!.similarity).toBeCloseTo(1, 5);
    expect(special.chunks[1]!.similarity).toBeCloseTo(0.8, 5);
    expect(output.trace.filter((event) => event.type === 'query-result')).toEqual([
      { type: 'query-result', nodeId: 5, query: 'find', chunkIds: ['d1', 'd2', 'd3'], nextOffset: null },
    ]);
  });

  it('honours threshold and chunkQty', async () => {
    expect(ids((await search(() => ({ query: 'find', threshold: 0.7 }))).special)).toEqual(['d1', 'd2']);
    expect(ids((await search(() => ({ query: 'find', chunkQty: 1 }))).special)).toEqual(['d1']);
    expect(ids((await search(() => ({ query: 'find', threshold: -1, chunkQty: 10 }))).special)).toEqual([
      'd1',
      'd2',
      'd3',
      'd4',
    ]);
  });

  it('applies a Qdrant-style filter on the chunks extra', async () => {
    const lang = { must: [{ key: 'lang', match: { value: 'en' } }] };
    expect(ids((await search(() => ({ query: 'find', filter: lang, threshold: -1 }))).special)).toEqual([
      'd1',
      'd3',
      'd4',
    ]);
    const recent = { must: [{ key: 'year', range: { gte: 2021 } }] };
    expect(ids((await search(() => ({ query: 'find', filter: recent }))).special)).toEqual(['d2', 'd3']);
    const notEnglish = { must_not: [{ key: 'lang', match: { value: 'en' } }] };
    expect(ids((await search(() => ({ query: 'find', filter: notEnglish }))).special)).toEqual(['d2']);
  });

  it('leaves out the chunks in blackList', async () => {
    expect(ids((await search(() => ({ query: 'find', blackList: ['d1', 'd3'] }))).special)).toEqual(['d2']);
  });

  it('accepts a Blacklist as blackList: its chunk ids are left out', async () => {
    const blacklist = new Blacklist();
    blacklist.add(['d1', 'd3'], 'chunk');
    blacklist.add(5, 'node');
    expect(ids((await search(() => ({ query: 'find', blackList: blacklist }))).special)).toEqual(['d2']);
  });

  it("accepts a Blacklist's JSON form { nodes, chunks } as blackList", async () => {
    const blackList = { nodes: [], chunks: ['d2'] } as unknown as Blacklist;
    expect(ids((await search(() => ({ query: 'find', blackList }))).special)).toEqual(['d1', 'd3']);
  });

  it('rejects a blackList that is neither ids nor a Blacklist, naming the field', async () => {
    await expect(search(() => ({ query: 'find', blackList: 'd1' as unknown as string[] }))).rejects.toThrow(
      /field "blackList" must be an array of chunk ids or a Blacklist, got "d1"/,
    );
  });

  it('accepts a constant query output', async () => {
    expect(ids((await search({ query: 'find', chunkQty: 2 })).special)).toEqual(['d1', 'd2']);
  });

  it('forRag chunks do not guide exploration', async () => {
    const specials: QueryAfterSpecial[] = [];
    // "find" is identical to the forRag chunk d1 and orthogonal to every signpost: no match.
    const output = await queryAgent(undefined, specials).send('s', 'find');
    expect(output.status).toBe('no-match');
    expect(specials).toEqual([]);
  });

  it("keeps forRag chunks out of the vector store's exploration collection, in their query node's", async () => {
    const vectorStore = new InMemoryVectorStore();
    const tree = defineTree({
      name: 'rag',
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        { id: 5, type: 'query', parent: 2, chunks: ['docs', ...DOCS] },
      ],
    });
    const agent = new TreeAgent({
      tree,
      embedder: new ExactEmbedder({ vectors: VECTORS }),
      vectorStore,
      exploreIn: 'vector-store',
    });
    expect((await agent.route('find')).noMatch).toBe(true);
    expect(await vectorStore.ids('rag:explore')).toEqual(['5:0']);
    expect((await vectorStore.ids('rag:5')).map(String).sort()).toEqual(['d1', 'd2', 'd3', 'd4']);
  });

  it('without a query callback searches with the explore direction (exploreForRagChunks)', async () => {
    const specials: QueryAfterSpecial[] = [];
    // With the opt-in, "find" routes to node 5 through its forRag chunk d1, then searches with "find".
    const output = await queryAgent(undefined, specials, [], true).send('s', 'find');
    expect(output.trace.find((e) => e.type === 'step-start' && e.step === 'execute')).toMatchObject({
      nodeId: 5,
    });
    expect(specials[0]!.query).toBe('find');
    expect(ids(specials[0])).toEqual(['d1', 'd2', 'd3']);
  });

  it('hands the retrieved chunks to later prompts', async () => {
    const specials: QueryAfterSpecial[] = [];
    const retrieved: RetrievedChunk[][] = [];
    await queryAgent(() => ({ query: 'find', chunkQty: 2 }), specials, retrieved).send('s', 'docs');
    expect(retrieved[0]!.map((chunk) => chunk.id)).toEqual(['d1', 'd2']);
  });

  it('an invalid filter is an INVALID_CALLBACK_OUTPUT of the query callback', async () => {
    const specials: QueryAfterSpecial[] = [];
    const agent = queryAgent(
      () => ({ query: 'find', filter: { must: [{ key: 'lang', match: {} }] } as any }),
      specials,
    );
    const error = await agent.send('s', 'docs').catch((e: unknown) => e);
    expect(TreeAgentError.hasCode(error, 'INVALID_CALLBACK_OUTPUT')).toBe(true);
    expect((error as TreeAgentError).callback).toBe('query');
    expect((error as TreeAgentError).nodeId).toBe(5);
  });
});

describe('query node: scroll', () => {
  it('without query, scrolls the chunks in id order, paginated by offset', async () => {
    const first = (await search(() => ({ chunkQty: 2 }))).special;
    expect(first.query).toBeNull();
    expect(ids(first)).toEqual(['d1', 'd2']);
    expect(first.chunks.every((chunk) => chunk.similarity === null)).toBe(true);
    expect(first.nextOffset).not.toBeNull();
    const second = (await search(() => ({ chunkQty: 2, offset: first.nextOffset }))).special;
    expect(ids(second)).toEqual(['d3', 'd4']);
    expect(second.nextOffset).toBeNull();
  });

  it('scrolls with filter and blackList, page after page within one interaction', async () => {
    const pages: (string | number)[][] = [];
    const specials: QueryAfterSpecial[] = [];
    const agent = new TreeAgent({
      tree: defineTree({
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, type: 'agent', parent: 1, isPrimary: true },
          {
            id: 5,
            type: 'query',
            parent: 2,
            chunks: ['docs', ...DOCS],
            query: (self) => ({
              chunkQty: 1,
              offset: self.offset ?? null,
              filter: { must: [{ key: 'lang', match: { value: 'en' } }] },
              blackList: ['d3'],
            }),
            after: (self, _context, special) => {
              specials.push(special);
              pages.push(special.chunks.map((chunk) => chunk.id));
              self.offset = special.nextOffset;
              return { nodeTarget: special.nextOffset ? 5 : 6, step: 'before' };
            },
          },
          {
            id: 6,
            type: 'emit',
            parent: 2,
            emit: { message: { type: MessageType.STATIC, content: 'done' } },
          },
        ],
      }),
      embedder: new ExactEmbedder({ vectors: VECTORS }),
    });
    const output = await agent.send('s', 'docs');
    expect(pages).toEqual([['d1'], ['d4']]);
    expect(specials.at(-1)!.nextOffset).toBeNull();
    expect(output.messages[0]!.content).toBe('done');
  });
});
