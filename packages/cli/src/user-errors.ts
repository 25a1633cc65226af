import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TreeAgentError } from '@treeagent/core';
import { InvalidArgumentError } from 'commander';

/**
 * Turns what went wrong while importing a tree module (a syntax error, an import that does not
 * resolve, an exception at the module's top level) into one `INVALID_INPUT` error that names the file
 * and line and says what to do. The original error is its `cause` (shown with `--verbose`).
 */
export function treeLoadError(error: unknown, treePath: string): TreeAgentError {
  if (TreeAgentError.isInstance(error)) return error;
  const where =
    locate(error) ?? (error instanceof SyntaxError ? checkedSyntaxLocation(treePath) : null) ?? treePath;
  const detail = firstLine(error);
  const code = (error as { code?: string } | null)?.code;
  const fix =
    code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND'
      ? missingModuleFix(detail)
      : isSyntaxError(error)
        ? 'Fix the syntax error and run the command again.'
        : 'Fix the error in the tree module (it runs when the tree is loaded) and run the command again.';
  return new TreeAgentError(
    'INVALID_INPUT',
    `Could not load the tree ${treePath}:\n  ${where}: ${detail}\n${fix}`,
    {
      cause: error,
      details: { file: where },
    },
  );
}

/** A commander parser for `--port`: an integer from 0 to 65535 (0 picks a free port). */
export function parsePort(value: string): string {
  if (!/^\d+$/.test(value) || Number(value) > 65_535)
    throw new InvalidArgumentError('expected a port number from 0 to 65535, e.g. --port 3000.');
  return value;
}

/** The error a server start gives when the port is taken, or null for any other error. */
export function portInUseError(error: unknown, host: string, port: number): TreeAgentError | null {
  if ((error as { code?: string } | null)?.code !== 'EADDRINUSE') return null;
  return new TreeAgentError(
    'INVALID_INPUT',
    `Port ${port} on ${host} is already in use (another treeagent dev, or another server). Stop that process or choose another port with --port <n> (--port 0 picks a free one).`,
    { cause: error },
  );
}

/** Everything `--verbose` prints for an error: its stack and the stacks of its causes. */
export function errorStack(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    parts.push(current instanceof Error ? (current.stack ?? current.message) : String(current));
    current = current instanceof Error ? current.cause : undefined;
    if (current !== undefined) parts.push('Caused by:');
  }
  return parts.join('\n');
}

/** tsx's (esbuild's) syntax errors: "Transform failed with 1 error:\n/path/tree.ts:3:2: ERROR: Expected …". */
const TRANSFORM_ERROR = /^(\/[^\n]*?):(\d+):(\d+): ERROR: (.*)$/m;

function isSyntaxError(error: unknown): boolean {
  return (
    error instanceof SyntaxError ||
    Array.isArray((error as { errors?: unknown } | null)?.errors) ||
    (error instanceof Error && TRANSFORM_ERROR.test(error.message))
  );
}

function missingModuleFix(detail: string): string {
  const bare = /Cannot find (?:package|module) '([^'./][^']*)'/.exec(detail)?.[1];
  return bare
    ? `Install it in your project (npm install ${bare.startsWith('@') ? bare.split('/').slice(0, 2).join('/') : bare.split('/')[0]}) or fix the import.`
    : 'Fix the import path (relative imports need the file extension, e.g. ./intents.js) and run the command again.';
}

/** The first line of the error's message, without tsx's "Transform failed" preamble. */
function firstLine(error: unknown): string {
  const esbuild = (error as { errors?: { text: string }[] } | null)?.errors;
  if (Array.isArray(esbuild) && esbuild[0]?.text) return esbuild[0].text;
  const transform = error instanceof Error ? TRANSFORM_ERROR.exec(error.message) : null;
  if (transform?.[4]) return `SyntaxError: ${transform[4]}`;
  const message = error instanceof Error ? error.message : String(error);
  const lines = message.split('\n').filter((line) => line.trim() && !line.startsWith('Require stack'));
  const name = error instanceof Error && error.name !== 'Error' ? `${error.name}: ` : '';
  return `${name}${(lines[0] ?? message).trim()}`;
}

/**
 * Node does not say where a syntax error of an ES module is once the error is caught: `node --check`
 * does ("/path/tree.js:3"). Run only on that error path, for JavaScript trees.
 */
function checkedSyntaxLocation(file: string): string | null {
  const check = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8', timeout: 10_000 });
  const first = check.stderr?.split('\n')[0] ?? '';
  return /^\/.*:\d+$/.test(first) ? first : null;
}

/** `file:line:column` of the error in the user's files, when the error says where. */
function locate(error: unknown): string | null {
  const esbuild = (
    error as { errors?: { location?: { file: string; line: number; column: number } }[] } | null
  )?.errors?.[0]?.location;
  if (esbuild) return `${esbuild.file}:${esbuild.line}:${esbuild.column + 1}`;
  if (!(error instanceof Error) || !error.stack) return null;
  const transform = TRANSFORM_ERROR.exec(error.message);
  if (transform) return `${transform[1]}:${transform[2]}:${Number(transform[3]) + 1}`;
  const stack = error.stack;
  // Node's syntax errors in an ES module start with "file:///path/tree.js:3".
  const head = /^(file:\/\/\/[^\n]*?):(\d+)\n/.exec(stack);
  if (head?.[1] && head[2]) return `${fileURLToPath(head[1])}:${head[2]}`;
  // An import that does not resolve: "Require stack: - /path/tree.ts?namespace=…" / "imported from /path".
  const importer =
    /Require stack:\n- ([^\n?]+)/.exec(error.message) ?? / imported from ([^\n]+)$/m.exec(error.message);
  if (importer?.[1]) return importer[1];
  for (const frame of stack.split('\n').slice(1)) {
    const fromData = /filePath=([^:?&]+)/.exec(frame);
    const location = /\(?((?:file:\/\/)?\/[^():]+):(\d+):(\d+)\)?$/.exec(frame.trim());
    if (fromData?.[1]) return decodeURIComponent(fromData[1]).replace(/\?.*$/, '');
    if (!location?.[1] || location[1].includes('/node_modules/') || frame.includes('node:')) continue;
    const file = location[1].startsWith('file:') ? fileURLToPath(location[1]) : location[1];
    return `${file.replace(/\?.*$/, '')}:${location[2]}:${location[3]}`;
  }
  return null;
}
