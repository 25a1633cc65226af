/** Length of USE-lite's vectors: a batch's answer holds `texts.length` rows of this many floats. */
export const USE_DIMENSIONS = 512;

/** A batch posted to USE-lite's worker thread; answered by one `WorkerAnswer` with the same `id`. */
export interface BatchRequest {
  type: 'batch';
  id: number;
  texts: string[];
}

/**
 * Asks the worker to end once the batches posted before are done: it releases the model and stops
 * its thread itself. Terminating the thread from outside while ONNX Runtime is loading or running
 * the model aborts the whole process (its native code throws into a thread being torn down).
 */
export interface CloseRequest {
  type: 'close';
}

/** What the main thread posts to the worker, in order. */
export type WorkerRequest = BatchRequest | CloseRequest;

/**
 * The worker's answer to a `BatchRequest`: the batch's vectors, row after row in one transferred
 * buffer (`texts.length × 512` floats), or why it failed — `stage: 'load'` when the model could not
 * be loaded (the worker is of no use then), `'embed'` when only this batch failed.
 */
export type WorkerAnswer =
  | { id: number; type: 'vectors'; vectors: Float32Array }
  | { id: number; type: 'error'; stage: 'load' | 'embed'; message: string };
