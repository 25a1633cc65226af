/**
 * Run as a script (`node --import tsx`): starts a load of texts on a new UseEmbedder's worker and
 * closes it after 0, 150, 300, … ms — while the model loads, while a batch runs, between batches —
 * then prints how many calls close() rejected and how many had finished, and `done`. Terminating
 * the worker's thread during a native call of ONNX Runtime aborts the whole process instead.
 */
import { UseEmbedder } from '../use-embedder.js';

const ROUNDS = 8;
const STEP_MS = 150;
const texts = Array.from({ length: 40 }, (_, index) => `my credit card number ${index} was stolen`);
let rejected = 0;
let finished = 0;
for (let round = 0; round < ROUNDS; round++) {
  const embedder = new UseEmbedder({ batchSize: 4 });
  const call = embedder.embed(texts).then(
    () => finished++,
    () => rejected++,
  );
  await new Promise((resolve) => setTimeout(resolve, round * STEP_MS));
  await embedder.close();
  await call;
}
console.log(`rejected ${rejected} finished ${finished} done`);
