import { Worker } from 'node:worker_threads';

/** How a fake worker misbehaves. */
export interface FakeWorkerBehaviour {
  /** Throws this at start, before listening (a worker whose module fails to load). */
  throwAtStart?: string;
  /** Answers every batch with a load error carrying this message (the weights would not load). */
  loadError?: string;
  /** Answers this batch (1st, 2nd, … of the worker) with an error of the model for that batch only. */
  batchErrorOn?: number;
  /** Throws an uncaught error on receiving this batch (1st, 2nd, …): a crash. */
  crashOn?: number;
  /** Calls `process.exit(code)` on receiving this batch. */
  exitOn?: { batch: number; code: number };
  /** Does not end on a close request (a worker stuck in a model call): close() has to terminate it. */
  ignoresClose?: boolean;
}

/**
 * A stand-in for USE-lite's worker thread that speaks its protocol (`worker-protocol.ts`) without
 * the model: each text's vector is 512 floats, the first the text's length, the second the number
 * of the batch (1, 2, … in the order the worker computed them); vectors are transferred.
 */
export function startFakeUseWorker(behaviour: FakeWorkerBehaviour = {}): Worker {
  return new Worker(FAKE_WORKER, { eval: true, workerData: behaviour });
}

const FAKE_WORKER = `
const { parentPort, workerData: behaviour } = require('node:worker_threads');
if (behaviour.throwAtStart) throw new Error(behaviour.throwAtStart);
let batch = 0;
parentPort.on('message', (request) => {
  if (request.type === 'close') {
    if (!behaviour.ignoresClose) process.exit(0);
    return;
  }
  const { id, texts } = request;
  batch++;
  if (behaviour.crashOn === batch) throw new Error('the fake worker crashed');
  if (behaviour.exitOn && behaviour.exitOn.batch === batch) process.exit(behaviour.exitOn.code);
  if (behaviour.loadError) return parentPort.postMessage({ id, type: 'error', stage: 'load', message: behaviour.loadError });
  if (behaviour.batchErrorOn === batch) return parentPort.postMessage({ id, type: 'error', stage: 'embed', message: 'the batch failed' });
  const vectors = new Float32Array(texts.length * 512);
  texts.forEach((text, row) => { vectors[row * 512] = text.length; vectors[row * 512 + 1] = batch; });
  parentPort.postMessage({ id, type: 'vectors', vectors }, [vectors.buffer]);
});
`;
