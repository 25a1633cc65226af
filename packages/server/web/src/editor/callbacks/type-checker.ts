import type { CallbackDiagnostic } from '../../../../src/api-types';
import type { ApiClient } from '../../api/api-client';
import { callbacksApi } from '../../api/callbacks-api';
import type { TypeCheckAnswer, TypeCheckRequest } from './type-check-worker';

/** The browser's type checker of the callbacks module: the worker, started with the server's compiler and types. */
export interface TypeChecker {
  check(text: string): Promise<CallbackDiagnostic[]>;
  stop(): void;
}

/**
 * Starts the type-checking worker: fetches the compiler and the module's types from the server (with
 * the page's credentials), hands them to the worker, and resolves once it has loaded them.
 */
export async function startTypeChecker(api: ApiClient, file: string): Promise<TypeChecker> {
  const [compiler, environment] = await Promise.all([callbacksApi.compiler(api), callbacksApi.types(api)]);
  const worker = new Worker(new URL('./type-check-worker.ts', import.meta.url));
  const pending = new Map<number, (diagnostics: CallbackDiagnostic[]) => void>();
  let next = 0;
  await new Promise<void>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<TypeCheckAnswer>) => {
      const answer = event.data;
      if (answer.kind === 'started') resolve();
      else if (answer.kind === 'failed') reject(new Error(answer.message));
      else {
        pending.get(answer.id)?.(answer.diagnostics);
        pending.delete(answer.id);
      }
    };
    worker.onerror = (event) => reject(new Error(event.message));
    const start: TypeCheckRequest = { kind: 'start', compiler, environment, file };
    worker.postMessage(start);
  });
  return {
    check: (text) =>
      new Promise((resolve) => {
        const id = ++next;
        pending.set(id, resolve);
        const request: TypeCheckRequest = { kind: 'check', id, text };
        worker.postMessage(request);
      }),
    stop: () => worker.terminate(),
  };
}
