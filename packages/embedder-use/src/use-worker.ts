/**
 * Entry point of USE-lite's worker thread (`WorkerEmbedding` starts it): loads the model, then
 * answers each `BatchRequest` in the order received with the batch's vectors, transferred.
 */
import { parentPort } from 'node:worker_threads';
import { embedBatch, loadUseModel } from './use-model.js';
import { type BatchRequest, USE_DIMENSIONS, type WorkerAnswer } from './worker-protocol.js';

const port = parentPort;
if (!port) throw new Error('use-worker.ts runs as a worker thread (new UseEmbedder() starts it).');
const model = loadUseModel();
// One batch at a time, in order: the model computes on this thread anyway.
let queue: Promise<void> = Promise.resolve();
port.on('message', (request: BatchRequest) => {
  queue = queue.then(() => answer(request));
});

async function answer({ id, texts }: BatchRequest): Promise<void> {
  let loaded: Awaited<typeof model>;
  try {
    loaded = await model;
  } catch (error) {
    post({ id, type: 'error', stage: 'load', message: messageOf(error) });
    return;
  }
  try {
    const rows = await embedBatch(loaded, texts);
    const vectors = new Float32Array(rows.length * USE_DIMENSIONS);
    rows.forEach((row, index) => {
      vectors.set(row, index * USE_DIMENSIONS);
    });
    port!.postMessage({ id, type: 'vectors', vectors } satisfies WorkerAnswer, [vectors.buffer]);
  } catch (error) {
    post({ id, type: 'error', stage: 'embed', message: messageOf(error) });
  }
}

function post(answer: WorkerAnswer): void {
  port!.postMessage(answer);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
