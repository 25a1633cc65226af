import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Measurements in fresh Node processes, each holding only one framework and configuration — no
 * other framework's heap, garbage or JIT state in its figures, which matters for p99s. Children run
 * with the parent's Node flags (tsx's loader).
 *
 * - `inChild(import.meta.url, 'fn', args)`: calls the exported `fn(args)` in a child, returns its result.
 * - `startWorker(import.meta.url, 'factory', args)`: a long-lived child whose exported `factory(args)`
 *   returns an object of methods; the parent calls them one at a time (`worker.call('block', 100)`),
 *   so several frameworks, each in its own process, can be timed in alternating short blocks and
 *   share the machine's noise alike.
 */
export const MARK = '@@bench-result@@';
/** The children's entry point: a separate module, so that no module it loads imports it back. */
const ENTRY = fileURLToPath(new URL('./child-entry.ts', import.meta.url));

export function inChild<T>(moduleUrl: string, fn: string, args: unknown): T {
  const output = execFileSync(
    process.execPath,
    [...process.execArgv, ENTRY, 'call', fileURLToPath(moduleUrl), fn, JSON.stringify(args)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 },
  );
  const line = output
    .split('\n')
    .reverse()
    .find((item) => item.startsWith(MARK));
  if (!line) throw new Error(`the child running ${fn} printed no result:\n${output.slice(-2000)}`);
  return JSON.parse(line.slice(MARK.length)) as T;
}

export interface Worker {
  call<T>(method: string, args?: unknown): Promise<T>;
  /** Calls the object's `close()` when it has one, then ends the process. */
  close(): Promise<void>;
}

/** A message between parent and worker. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'call'; id: number; method: string; args: unknown }
  | { type: 'result'; id: number; result: unknown }
  | { type: 'error'; id: number; error: string };

export async function startWorker(moduleUrl: string, factory: string, args: unknown): Promise<Worker> {
  const child: ChildProcess = fork(
    ENTRY,
    ['worker', fileURLToPath(moduleUrl), factory, JSON.stringify(args)],
    {
      execArgv: process.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let exited: Error | null = null;
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (message: WorkerMessage) => {
      if (message.type === 'ready') resolve();
      else if (message.type === 'result') pending.get(message.id)?.resolve(message.result);
      else if (message.type === 'error') pending.get(message.id)?.reject(new Error(message.error));
      if (message.type === 'result' || message.type === 'error') pending.delete(message.id);
    });
    child.on('exit', (code) => {
      exited = new Error(`the ${factory} worker exited (code ${code})`);
      reject(exited);
      for (const { reject: fail } of pending.values()) fail(exited);
      pending.clear();
    });
  });
  await ready;
  let next = 0;
  const call = <T>(method: string, callArgs?: unknown): Promise<T> => {
    if (exited) return Promise.reject(exited);
    const id = next++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ type: 'call', id, method, args: callArgs } satisfies WorkerMessage);
    });
  };
  return {
    call,
    async close() {
      if (exited) return;
      const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ type: 'call', id: next++, method: '__exit', args: null } satisfies WorkerMessage);
      await done;
    },
  };
}
