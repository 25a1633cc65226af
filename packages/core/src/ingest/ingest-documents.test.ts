import { describe, expect, test } from 'vitest';
import { InMemoryEmbeddingCache } from '../embedding/embedding-cache.js';
import { HashedEmbedder } from '../embedding/hashed-embedder.js';
import { TreeAgent } from '../engine/agent/tree-agent.js';
import { sourcesFromChunks } from '../engine/turn/message-content.js';
import { ExactEmbedder } from '../test/exact-embedder.js';
import { defineTree } from '../tree/define-tree.js';
import { InMemoryVectorStore } from '../vector/in-memory-vector-store.js';
import { ingestDocuments } from './ingest-documents.js';
import { splitText } from './split-text.js';

const tree = defineTree({
  name: 'docs',
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    {
      id: 3,
      type: 'query',
      parent: 2,
      chunks: ['garanzia', { text: 'chunk del tree', forRag: true }],
      after: () => ({ nodeTarget: 4, step: 'before' }),
    },
    {
      id: 4,
      type: 'emit',
      parent: 3,
      emit: (_self, context) => ({
        message: { type: 'static', content: context.retrieved.get(3)?.[0]?.text ?? 'niente' },
      }),
    },
  ],
});
const manual =
  '# Garanzia\n\nLa garanzia dura due anni dalla consegna.\n\n## Esclusioni\n\nLa garanzia non copre le cadute.';

describe('splitText', () => {
  test('splits by Markdown sections and keeps the heading path', () => {
    expect(splitText(manual)).toEqual([
      { text: 'La garanzia dura due anni dalla consegna.', heading: 'Garanzia' },
      { text: 'La garanzia non copre le cadute.', heading: 'Garanzia > Esclusioni' },
    ]);
  });

  test('a heading written `## Title {#anchor}` gives its pieces the anchor, without it in the path', () => {
    expect(splitText('# Help {#help}\n\nIntro.\n\n## Refunds {#refunds}\n\nIn 14 days.')).toEqual([
      { text: 'Intro.', heading: 'Help', anchor: 'help' },
      { text: 'In 14 days.', heading: 'Help > Refunds', anchor: 'refunds' },
    ]);
  });

  test('pages separated by form feeds: each piece keeps its page', () => {
    const pieces = splitText('First page text.\f# Second\n\nOn page two.\fOn page three.', { maxChars: 40 });
    expect(pieces).toEqual([
      { text: 'First page text.', page: 1 },
      { text: 'On page two.', heading: 'Second', page: 2 },
      { text: 'On page three.', heading: 'Second', page: 3 },
    ]);
  });

  test('no piece is longer than maxChars and no text is lost', () => {
    const long = Array.from(
      { length: 40 },
      (_, i) => `Frase numero ${i} sulla manutenzione della bicicletta.`,
    ).join(' ');
    const pieces = splitText(long, { maxChars: 200, overlap: 20 });
    expect(pieces.length).toBeGreaterThan(5);
    for (const piece of pieces) expect(piece.text.length).toBeLessThanOrEqual(200);
    for (let i = 0; i < 40; i++)
      expect(pieces.some((piece) => piece.text.includes(`Frase numero ${i} `))).toBe(true);
  });
});

describe('ingestDocuments', () => {
  test('loads chunks into the query node collection; a re-run duplicates nothing; a change replaces and removes', async () => {
    const store = new InMemoryVectorStore();
    const embedder = new HashedEmbedder();
    const cache = new InMemoryEmbeddingCache();
    const options = { tree, nodeId: 3, vectorStore: store, embedder, embeddingCache: cache };
    const first = await ingestDocuments(
      [{ source: 'manuale.md', text: manual, extra: { lang: 'it' } }],
      options,
    );
    expect(first).toEqual({ documents: 1, written: 2, unchanged: 0, removed: 0 });
    const again = await ingestDocuments(
      [{ source: 'manuale.md', text: manual, extra: { lang: 'it' } }],
      options,
    );
    expect(again).toEqual({ documents: 1, written: 0, unchanged: 2, removed: 0 });
    expect(await store.ids('docs:3')).toHaveLength(2);
    const changed = await ingestDocuments(
      [{ source: 'manuale.md', text: '# Garanzia\n\nLa garanzia dura tre anni.' }],
      options,
    );
    expect(changed).toEqual({ documents: 1, written: 1, unchanged: 0, removed: 1 });
    const page = await store.scroll({ collection: 'docs:3', limit: 10 });
    expect(page.chunks.map((chunk) => chunk.text)).toEqual(['La garanzia dura tre anni.']);
    expect(page.chunks[0]!.extra).toMatchObject({
      title: 'manuale.md',
      heading: 'Garanzia',
      _source: 'manuale.md',
    });
  });

  test('the agent keeps ingested chunks when it loads the tree, and retrieves them', async () => {
    const store = new InMemoryVectorStore();
    const embedder = new ExactEmbedder({
      vectors: {
        garanzia: [1, 0],
        'La garanzia dura due anni dalla consegna.': [1, 0],
        'La garanzia non copre le cadute.': [0.5, 0.5],
        'chunk del tree': [0, 1],
      },
      fallback: [1, 0],
    });
    await ingestDocuments([{ source: 'manuale.md', text: manual }], {
      tree,
      nodeId: 3,
      vectorStore: store,
      embedder,
    });
    const agent = new TreeAgent({ tree, embedder, vectorStore: store });
    const output = await agent.send('s', 'quanto dura la garanzia?');
    expect(output.messages[0]!.content).toBe('La garanzia dura due anni dalla consegna.');
    expect((await store.ids('docs:3')).length).toBe(3);
  });

  test('chunks carry the title and URL (with the anchor of their section), and an emit cites them as links', async () => {
    const vectorStore = new InMemoryVectorStore();
    const embedder = new HashedEmbedder();
    const citing = defineTree({
      name: 'cite',
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'query',
          parent: 2,
          chunks: ['refund'],
          query: { query: 'refund in 14 days', threshold: 0, chunkQty: 1 },
          after: () => ({ nodeTarget: 4, step: 'before' }),
        },
        {
          id: 4,
          type: 'emit',
          parent: 3,
          emit: (_self, context) => ({
            message: { type: 'static', content: 'See the sources.' },
            sources: sourcesFromChunks(context.retrieved.get(3) ?? []),
          }),
        },
      ],
    });
    await ingestDocuments(
      [
        {
          source: 'https://help.example/returns',
          title: 'Returns',
          url: 'https://help.example/returns',
          text: '# Refunds {#refunds}\n\nA refund in 14 days.',
        },
      ],
      { tree: citing, nodeId: 3, vectorStore, embedder },
    );
    const output = await new TreeAgent({ tree: citing, embedder, vectorStore }).send('s', 'refund');
    expect(output.messages[0]!.sources).toMatchObject([
      { title: 'Returns', url: 'https://help.example/returns#refunds', content: 'A refund in 14 days.' },
    ]);
  });

  test('unseen documents skip the look-up of old chunks: nothing is read from the collection', async () => {
    const store = new InMemoryVectorStore();
    let scrolls = 0; // a spy on the real store: counts its scrolls
    const scroll = store.scroll.bind(store);
    store.scroll = async (request) => {
      scrolls++;
      return scroll(request);
    };
    const options = { tree, nodeId: 3, vectorStore: store, embedder: new HashedEmbedder() };
    await ingestDocuments([{ source: 'a.md', text: manual }], { ...options, unseen: true });
    expect(scrolls).toBe(0);
    expect(await store.ids('docs:3')).toHaveLength(2);
    await ingestDocuments([{ source: 'a.md', text: manual }], options);
    expect(scrolls).toBeGreaterThan(0);
  });

  test('only query nodes take documents', async () => {
    await expect(
      ingestDocuments([], {
        tree,
        nodeId: 4,
        vectorStore: new InMemoryVectorStore(),
        embedder: new HashedEmbedder(),
      }),
    ).rejects.toThrow(/not a query node/);
  });

  test('a document kept in the file store: its chunks reference the file, and the File Agent lists it (origin rag)', async () => {
    const vectorStore = new InMemoryVectorStore();
    const embedder = new HashedEmbedder();
    const listed: string[][] = [];
    const withFiles = defineTree({
      name: 'docs-files',
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'query',
          parent: 2,
          chunks: ['garanzia'],
          query: { query: 'quanto dura la garanzia', threshold: 0 },
          after: (_self, context) => {
            listed.push(context.fileAgent.list('rag').map((file) => `${file.id}:${file.name}`));
            return { nodeTarget: 4, step: 'before' };
          },
        },
        { id: 4, type: 'emit', parent: 3, emit: { message: { type: 'static', content: 'ok' } } },
      ],
    });
    const agent = new TreeAgent({ tree: withFiles, embedder, vectorStore });
    const file = await agent.fileStore.put({
      name: 'manuale.md',
      mimeType: 'text/markdown',
      data: new TextEncoder().encode(manual),
      origin: 'rag',
    });
    await ingestDocuments([{ source: 'manuale.md', text: manual, file }], {
      tree: withFiles,
      nodeId: 3,
      vectorStore,
      embedder,
    });
    await agent.send('s', 'garanzia');
    expect(listed).toEqual([[`${file.id}:manuale.md`]]);
    expect((await agent.sessionStore.load('s'))!.files).toEqual([
      { id: file.id, name: 'manuale.md', mimeType: 'text/markdown', origin: 'rag' },
    ]);
  });
});
