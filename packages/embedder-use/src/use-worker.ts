/**
 * Entry point of USE-lite's worker thread (`WorkerEmbedding` starts it): loads the model, then
 * answers each `BatchRequest` in the order received with the batch's vectors, transferred; on a
 * `CloseRequest` it releases the model and ends its own thread, never in the middle of a model call.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { embedBatch, loadUseModel } from './use-model.js';
import type { UseRuntime } from './use-runtime.js';
import type { BatchRequest, WorkerAnswer, WorkerRequest } from './worker-protocol.js';

const port = parentPort;
if (!port) throw new Error('use-worker.ts runs as a worker thread (new UseEmbedder() starts it).');
const model = loadUseModel((workerData as { runtime?: UseRuntime } | null)?.runtime ?? 'auto');
// One batch at a time, in order: the model computes on this thread anyway.
let queue: Promise<void> = Promise.resolve();
port.on('message', (request: WorkerRequest) => {
  queue = queue.then(() => (request.type === 'close' ? end() : answer(request)));
});

/** After the batches before it: the model released, the thread ends (no native call is running). */
async function end(): Promise<void> {
  try {
    await (await model).release();
  } catch {
    // A model that did not load has nothing to release.
  }
  process.exit(0);
}

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
    // A buffer of its own, transferred (ONNX Runtime's output may sit in a larger one).
    const vectors = rows.byteLength === rows.buffer.byteLength ? rows : rows.slice();
    port!.postMessage({ id, type: 'vectors', vectors } satisfies WorkerAnswer, [
      vectors.buffer as ArrayBuffer,
    ]);
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
