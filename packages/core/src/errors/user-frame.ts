import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The engine's own source folder (`src/` or `dist/` of @treeagent/core): not the author's code.
 * From the URL's text, so that it works where `URL` is not Node's own (a DOM test environment).
 */
const ENGINE_DIR = engineDirectory();

function engineDirectory(): string | null {
  try {
    return fileURLToPath(new URL('..', import.meta.url).href);
  } catch {
    return null;
  }
}

const FRAME = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/;

/**
 * The first frame of an error's stack that is in the author's code: not Node's internals, not
 * `node_modules`, not the engine itself (its test files excepted, where tests write callbacks).
 * Returned as `fn (path:line:column)`, the path relative to the working directory; `undefined`
 * when the error has no such frame.
 *
 * @example
 * userFrame(error); // 'before (examples/src/bike-shop/tree.ts:120:15)'
 */
export function userFrame(error: unknown): string | undefined {
  const stack = (error as { stack?: unknown } | null)?.stack;
  if (typeof stack !== 'string') return undefined;
  for (const line of stack.split('\n').slice(1)) {
    const match = FRAME.exec(line);
    if (!match) continue;
    let file = match[2]!;
    if (file.startsWith('file://')) file = fileURLToPath(file);
    if (!isAuthorFile(file)) continue;
    const where = `${relative(process.cwd(), file) || file}:${match[3]}:${match[4]}`;
    const name = match[1]?.replace(/^async /, '');
    return name ? `${name} (${where})` : where;
  }
  return undefined;
}

function isAuthorFile(file: string): boolean {
  if (file.startsWith('node:') || file.startsWith('internal/') || file === 'native') return false;
  if (file.includes('/node_modules/') || file.includes('\\node_modules\\')) return false;
  if (ENGINE_DIR !== null && file.startsWith(ENGINE_DIR)) return /\.test\.[cm]?[jt]s$/.test(file);
  return file.startsWith('/') || /^[A-Za-z]:[\\/]/.test(file);
}
