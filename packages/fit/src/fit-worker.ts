/**
 * Entry point of the worker thread that runs a fit's math (`projectInWorker`): receives the
 * embedded training chunks, posts each step (and, with `refine`, the LDA's map before it is refined),
 * then the fitted map (or the error).
 */
import { parentPort } from 'node:worker_threads';
import { projectVectors, type VectorsToProject } from './project-vectors.js';

const port = parentPort;
if (!port) throw new Error('fit-worker.ts runs as a worker thread (projectInWorker starts it).');
port.once('message', async (input: VectorsToProject) => {
  try {
    const fitted = await projectVectors(
      input,
      (phase) => port.postMessage({ type: 'step', phase }),
      undefined,
      (unrefined) => port.postMessage({ type: 'unrefined', fitted: unrefined }),
    );
    port.postMessage({ type: 'done', fitted }, [
      fitted.matrix.buffer as ArrayBuffer,
      fitted.offset.buffer as ArrayBuffer,
    ]);
  } catch (error) {
    port.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
});
