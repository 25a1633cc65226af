import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { TreeAgentError } from '@treeagent/core';
import type { FitProgress } from './fit-settings.js';
import type { ProjectedFit, VectorsToProject } from './project-vectors.js';

type WorkerMessage =
  | { type: 'step'; phase: FitProgress['phase'] }
  | { type: 'unrefined'; fitted: ProjectedFit }
  | { type: 'done'; fitted: ProjectedFit }
  | { type: 'error'; message: string };

/**
 * `projectVectors` in a worker thread, so the thread that serves keeps answering while the PCA,
 * the scatter and the eigen-decomposition run (seconds on a large tree). The training rows are in
 * shared memory (not copied). The worker does not keep the process alive; `signal` stops it.
 * `onUnrefined`: as `projectVectors`'.
 */
export function projectInWorker(
  input: VectorsToProject,
  onStep: (phase: FitProgress['phase']) => void,
  signal?: AbortSignal,
  onUnrefined?: (fit: ProjectedFit) => void,
): Promise<ProjectedFit> {
  signal?.throwIfAborted();
  return new Promise<ProjectedFit>((resolve, reject) => {
    const worker = startWorker();
    worker.unref();
    let settled = false;
    const finish = (action: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', abort);
      void worker.terminate();
      action();
    };
    const abort = () => finish(() => reject(signal!.reason));
    signal?.addEventListener('abort', abort, { once: true });
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'step') onStep(message.phase);
      else if (message.type === 'unrefined') onUnrefined?.(message.fitted);
      else if (message.type === 'done') finish(() => resolve(message.fitted));
      else finish(() => reject(new TreeAgentError('EMBEDDER', `The fit failed: ${message.message}`)));
    });
    worker.on('error', (error) =>
      finish(() =>
        reject(new TreeAgentError('EMBEDDER', `The fit's worker thread failed: ${error.message}`)),
      ),
    );
    worker.on('exit', (code) =>
      finish(() =>
        reject(
          new TreeAgentError(
            'EMBEDDER',
            `The fit's worker thread exited (code ${code}) before the fit was done.`,
          ),
        ),
      ),
    );
    worker.postMessage(input);
  });
}

/**
 * The built package runs `fit-worker.js`; from the TypeScript sources (tests, tsx), the worker
 * registers tsx first, as the calling thread did, and imports `fit-worker.ts`.
 */
function startWorker(): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./fit-worker.js', here));
  // tsx's ES module entry (its CommonJS one cannot register hooks from an eval'd worker).
  const tsx = pathToFileURL(
    createRequire(here)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const entry = new URL('./fit-worker.ts', here).href;
  return new Worker(
    `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`,
    { eval: true },
  );
}
