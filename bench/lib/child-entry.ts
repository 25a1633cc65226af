import { pathToFileURL } from 'node:url';
import { MARK, type WorkerMessage } from './child.js';

/**
 * Entry of the child processes started by `inChild` (`call <file> <fn> <args>`: prints the result)
 * and `startWorker` (`worker <file> <factory> <args>`: answers method calls over IPC).
 */
const [mode, file, name, args] = process.argv.slice(2) as [string, string, string, string];
const module = (await import(pathToFileURL(file).href)) as Record<string, (args: unknown) => unknown>;

if (mode === 'call') {
  const result = await module[name]!(JSON.parse(args));
  // Open handles (database pools, timers) must not keep a finished measurement alive; the exit waits
  // for the write, which to a pipe is asynchronous (an exit right after it cut results of ≥ 64 KB).
  process.stdout.write(`${MARK}${JSON.stringify(result)}\n`, () => process.exit(0));
} else {
  const target = (await module[name]!(JSON.parse(args))) as Record<string, (args: unknown) => unknown>;
  const send = (message: WorkerMessage) => process.send!(message);
  // One call at a time, in order: the parent awaits each.
  let queue = Promise.resolve();
  process.on('message', (message: WorkerMessage) => {
    if (message.type !== 'call') return;
    queue = queue.then(async () => {
      if (message.method === '__exit') {
        await target.close?.(undefined);
        process.exit(0);
      }
      try {
        send({ type: 'result', id: message.id, result: await target[message.method]!(message.args) });
      } catch (error) {
        send({ type: 'error', id: message.id, error: (error as Error)?.stack ?? String(error) });
      }
    });
  });
  send({ type: 'ready' });
}
