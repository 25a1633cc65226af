import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { UseRuntime } from './use-runtime.js';

/**
 * Starts USE-lite's worker thread, computing on `runtime` (its `workerData`). The built package runs `use-worker.js` beside this file; from
 * the TypeScript sources (tests, tsx: `@treeagent/*` resolves to `src/` inside the repository), the
 * worker registers tsx first, as the calling thread did, and imports `use-worker.ts`.
 */
export function startUseWorker(runtime: UseRuntime = 'auto'): Worker {
  const here = import.meta.url;
  const workerData = { runtime };
  if (!here.endsWith('.ts')) return new Worker(new URL('./use-worker.js', here), { workerData });
  // tsx's ES module entry (its CommonJS one cannot register hooks from an eval'd worker).
  const tsx = pathToFileURL(
    createRequire(here)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const entry = new URL('./use-worker.ts', here).href;
  return new Worker(
    `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`,
    { eval: true, workerData },
  );
}
