import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Runs one measurement in a fresh Node process: `inChild(import.meta.url, 'fn', args)` calls the
 * exported `fn(args)` of that module in a child and returns its (JSON) result. Each framework and
 * configuration is then timed in a process holding only itself — no other framework's heap, garbage
 * or JIT state — which matters for p99s. The child runs with the parent's Node flags (tsx's loader).
 */
export const MARK = '@@bench-result@@';
/** The child's entry point: a separate module, so that no module it loads imports it back. */
const ENTRY = fileURLToPath(new URL('./child-entry.ts', import.meta.url));

export function inChild<T>(moduleUrl: string, fn: string, args: unknown): T {
  const output = execFileSync(
    process.execPath,
    [...process.execArgv, ENTRY, fileURLToPath(moduleUrl), fn, JSON.stringify(args)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 },
  );
  const line = output
    .split('\n')
    .reverse()
    .find((item) => item.startsWith(MARK));
  if (!line) throw new Error(`the child running ${fn} printed no result:\n${output.slice(-2000)}`);
  return JSON.parse(line.slice(MARK.length)) as T;
}
