import { describe, expect, it } from 'vitest';
import { clusterMessages } from './cluster-messages.js';

const message = (text: string, count: number) => ({
  message: text,
  count,
  lastAt: '2026-11-01T00:00:00.000Z',
});
const v = (...values: number[]) => Float32Array.from(values);

describe('clusterMessages', () => {
  it('groups similar messages, largest cluster first, members by frequency', () => {
    const messages = [
      message('parcheggio?', 1),
      message('meteo domani', 4),
      message('dove parcheggio', 3),
      message('pioverà?', 1),
    ];
    const vectors = [v(0.9, Math.sqrt(1 - 0.81), 0), v(0, 0, 1), v(1, 0, 0), v(0, 0.3, Math.sqrt(1 - 0.09))];
    const clusters = clusterMessages(messages, vectors);
    expect(clusters.map((cluster) => [cluster.size, cluster.messages.map((m) => m.message)])).toEqual([
      [5, ['meteo domani', 'pioverà?']],
      [4, ['dove parcheggio', 'parcheggio?']],
    ]);
  });

  it('keeps dissimilar messages apart, and messages with no vector alone', () => {
    const clusters = clusterMessages(
      [message('a', 1), message('b', 1), message('zzz', 1)],
      [v(1, 0), v(0, 1), v(0, 0)],
    );
    expect(clusters).toHaveLength(3);
  });

  it('a stricter similarity makes more clusters; maxClusters keeps the largest', () => {
    const messages = [message('a', 3), message('b', 2)];
    const vectors = [v(1, 0), v(0.8, 0.6)];
    expect(clusterMessages(messages, vectors, { similarity: 0.7 })).toHaveLength(1);
    expect(clusterMessages(messages, vectors, { similarity: 0.9 })).toHaveLength(2);
    expect(clusterMessages(messages, vectors, { similarity: 0.9, maxClusters: 1 })[0]!.size).toBe(3);
  });
});
