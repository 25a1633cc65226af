import { describe, expect, test } from 'vitest';
import { HashedEmbedder } from '../embedding/hashed-embedder.js';
import { TreeAgent } from '../engine/agent/tree-agent.js';
import { defineTree } from '../tree/define-tree.js';
import type { NodeDefinition } from '../tree/node-definition.js';
import { InMemoryVectorStore } from '../vector/in-memory-vector-store.js';

const emit = (content: string) => ({ message: { type: 'static' as const, content } });
const nodes: NodeDefinition[] = [
  { id: 1, type: 'root', defaultSimilarityThreshold: 0.15 },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  { id: 10, type: 'empty', parent: 2, name: 'negozio', isAnchor: true, chunks: ['negozio di biciclette'] },
  {
    id: 11,
    type: 'emit',
    parent: 10,
    name: 'spedizioni',
    chunks: [
      'quanto costa la spedizione',
      { text: 'spedizione in Europa', extra: { lang: 'it', zone: 'eu' } },
    ],
    emit: emit('7,90 €'),
  },
  {
    id: 12,
    type: 'emit',
    parent: 10,
    name: 'resi',
    chunks: ['restituire un prodotto', { text: 'rimborso del reso', extra: { lang: 'it' } }],
    emit: emit('30 giorni'),
  },
  { id: 13, type: 'empty', parent: 10, name: 'ordini', chunks: ['stato del mio ordine'] },
  {
    id: 14,
    type: 'emit',
    parent: 13,
    name: 'tracking',
    chunks: ['tracciare il pacco', 'dove si trova il corriere'],
    emit: emit('in viaggio'),
  },
  { id: 20, type: 'emit', parent: 2, name: 'saluto', chunks: ['ciao', 'buongiorno'], emit: emit('Ciao!') },
  {
    id: 30,
    type: 'emit',
    parent: 2,
    name: 'orari',
    chunks: [
      { text: 'orari di apertura del negozio', extra: { lang: 'it' } },
      { text: 'opening hours', extra: { lang: 'en' } },
    ],
    emit: emit('9-18'),
  },
];
const messages = [
  'quanto costa spedire in Europa?',
  'voglio restituire la bici',
  'dove si trova il mio pacco?',
  'ciao a tutti',
  'che orari fate?',
  'what are your opening hours',
  'il mio ordine',
  'previsioni meteo',
];

describe("exploring in the vector store gives the in-memory exploration's decisions", () => {
  const tree = defineTree({ name: 'parity', nodes });
  const memory = new TreeAgent({ tree, embedder: new HashedEmbedder() });
  const store = new TreeAgent({
    tree,
    embedder: new HashedEmbedder(),
    vectorStore: new InMemoryVectorStore(),
    exploreIn: 'vector-store',
  });

  test.each(messages)('route: %s', async (message) => {
    const [a, b] = await Promise.all([memory.route(message), store.route(message)]);
    expect(b.node.id).toBe(a.node.id);
    expect(b.decisions.map(strip)).toEqual(a.decisions.map(strip));
  });

  test('conversations with climbs, blacklist and filter follow the same path', async () => {
    const withConstraints = defineTree({
      name: 'parity-constraints',
      nodes: nodes.map((node) =>
        node.type === 'root'
          ? {
              ...node,
              beforeRun: (_self, context) => {
                if (context.input.original.includes('solo italiano'))
                  context.exploreStrategy.constraints.filter = {
                    must: [{ key: 'lang', match: { value: 'it' } }],
                  };
                if (context.input.original.includes('niente resi'))
                  context.exploreStrategy.constraints.blacklist.add(12, 'node');
                if (context.input.original.includes('niente europa'))
                  context.exploreStrategy.constraints.blacklist.add('11:1', 'chunk');
              },
            }
          : node,
      ),
    });
    const conversation = [
      'quanto costa spedire in Europa?',
      'e se volessi restituire?',
      'rimborso del reso, niente resi',
      'opening hours solo italiano',
      'spedizione in Europa niente europa',
      'dove si trova il corriere?',
      'grazie',
    ];
    const run = async (agent: TreeAgent) => {
      const paths = [];
      for (const text of conversation) {
        const output = await agent.send('s', text);
        paths.push({
          status: output.status,
          node: output.nodeId,
          decisions: output.trace.filter((event) => event.type === 'explore-decision').map(strip),
        });
      }
      return paths;
    };
    const inMemory = await run(new TreeAgent({ tree: withConstraints, embedder: new HashedEmbedder() }));
    const inStore = await run(
      new TreeAgent({
        tree: withConstraints,
        embedder: new HashedEmbedder(),
        vectorStore: new InMemoryVectorStore(),
        exploreIn: 'vector-store',
      }),
    );
    expect(inStore).toEqual(inMemory);
    expect(new Set(inMemory.map((turn) => turn.node)).size).toBeGreaterThan(2);
  });
});

/** A decision with its similarities rounded (the runner-up's too: both searches find it). */
function strip(
  decision: {
    best: { similarity: number; runnerUp?: { childId: number; similarity: number } | null } | null;
  } & Record<string, unknown>,
) {
  if (!decision.best) return { ...decision, best: null };
  const round = (value: number) => Math.round(value * 1e4) / 1e4;
  const { runnerUp, ...best } = decision.best;
  return {
    ...decision,
    best: {
      ...best,
      similarity: round(best.similarity),
      runnerUp: runnerUp ? { childId: runnerUp.childId, similarity: round(runnerUp.similarity) } : runnerUp,
    },
  };
}
