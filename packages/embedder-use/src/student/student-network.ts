import type { Features } from './student-features.js';

/**
 * The student's network (a deep averaging network, as USE's DAN variant): the features' embedding
 * rows summed and divided by √n, then `hidden = tanh(W1·x + b1)`, then `out = W2·hidden + b2`
 * (512 dimensions, as USE-lite); with `hidden` 0, no hidden layer: `out = W2·x + b2`. All weights
 * are float32, row-major.
 */
export interface StudentNetwork {
  /** Width of an embedding row. */
  embedding: number;
  /** Width of the hidden layer; 0: none (W1 and b1 empty, W2 is output × embedding). */
  hidden: number;
  output: number;
  /** rows × embedding. */
  table: Float32Array;
  /** hidden × embedding. */
  w1: Float32Array;
  b1: Float32Array;
  /** output × hidden (output × embedding without a hidden layer). */
  w2: Float32Array;
  b2: Float32Array;
}

/** The averaged input `x` of a text's features (zeros for no features). */
export function averageRows(network: StudentNetwork, features: Features, x: Float32Array): void {
  x.fill(0);
  const { embedding, table } = network;
  const scale = features.count > 0 ? 1 / Math.sqrt(features.count) : 0;
  for (let f = 0; f < features.rows.length; f++) {
    const base = features.rows[f]! * embedding;
    const weight = features.weights[f]! * scale;
    for (let d = 0; d < embedding; d++) x[d]! += weight * table[base + d]!;
  }
}

/** `hidden = tanh(W1·x + b1)`, `out = W2·hidden + b2` (`out = W2·x + b2` without a hidden layer). */
export function forward(
  network: StudentNetwork,
  x: Float32Array,
  hidden: Float32Array,
  out: Float32Array,
): void {
  const { embedding, w1, b1, w2, b2 } = network;
  if (network.hidden === 0) {
    for (let o = 0; o < network.output; o++) {
      let sum = b2[o]!;
      const base = o * embedding;
      for (let d = 0; d < embedding; d++) sum += w2[base + d]! * x[d]!;
      out[o] = sum;
    }
    return;
  }
  for (let h = 0; h < network.hidden; h++) {
    let sum = b1[h]!;
    const base = h * embedding;
    for (let d = 0; d < embedding; d++) sum += w1[base + d]! * x[d]!;
    hidden[h] = Math.tanh(sum);
  }
  for (let o = 0; o < network.output; o++) {
    let sum = b2[o]!;
    const base = o * network.hidden;
    for (let h = 0; h < network.hidden; h++) sum += w2[base + h]! * hidden[h]!;
    out[o] = sum;
  }
}
