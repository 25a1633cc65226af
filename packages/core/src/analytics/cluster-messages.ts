import type { UnmatchedMessage } from './analytics-store.js';

/** A group of similar unmatched messages. */
export interface MessageCluster {
  /** Times its messages were sent, together. */
  size: number;
  /** Its messages, most frequent first. */
  messages: UnmatchedMessage[];
  /** The unit mean of the messages' vectors (weighted by how often each was sent). */
  centroid: Float32Array;
}

/** Options of `clusterMessages`. */
export interface ClusterOptions {
  /** A message joins the first cluster whose centroid is at least this similar. Default 0.6. */
  similarity?: number;
  /** At most this many clusters (the largest); the rest are dropped. Default 50. */
  maxClusters?: number;
}

/**
 * Clusters unmatched messages by their embeddings (docs/analytics.md): in order of frequency, each
 * message joins the most similar existing cluster if its centroid is similar enough, else starts
 * one. Deterministic (same input, same clusters) and linear in messages × clusters. Vectors are
 * unit length, as `TreeAgent.embed` returns them.
 */
export function clusterMessages(
  messages: readonly UnmatchedMessage[],
  vectors: readonly Float32Array[],
  options: ClusterOptions = {},
): MessageCluster[] {
  const threshold = options.similarity ?? 0.6;
  const clusters: {
    size: number;
    messages: UnmatchedMessage[];
    sum: Float32Array;
    centroid: Float32Array;
  }[] = [];
  const order = messages
    .map((_, index) => index)
    .sort((a, b) => messages[b]!.count - messages[a]!.count || a - b);
  for (const index of order) {
    const message = messages[index]!;
    const vector = vectors[index]!;
    let best = -1;
    let bestSimilarity = threshold;
    clusters.forEach((cluster, position) => {
      const similarity = dot(cluster.centroid, vector);
      if (similarity >= bestSimilarity) {
        best = position;
        bestSimilarity = similarity;
      }
    });
    if (best < 0 || isZero(vector)) {
      const sum = Float32Array.from(vector, (value) => value * message.count);
      clusters.push({ size: message.count, messages: [message], sum, centroid: unit(sum) });
      continue;
    }
    const cluster = clusters[best]!;
    cluster.size += message.count;
    cluster.messages.push(message);
    for (let i = 0; i < vector.length; i++) cluster.sum[i]! += vector[i]! * message.count;
    cluster.centroid = unit(cluster.sum);
  }
  return clusters
    .sort((a, b) => b.size - a.size)
    .slice(0, options.maxClusters ?? 50)
    .map(({ size, messages: members, centroid }) => ({ size, messages: members, centroid }));
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

function isZero(vector: Float32Array): boolean {
  return vector.every((value) => value === 0);
}

function unit(vector: Float32Array): Float32Array {
  const length = Math.sqrt(dot(vector, vector));
  return length === 0 ? Float32Array.from(vector) : Float32Array.from(vector, (value) => value / length);
}
