/**
 * Runs the examples of the READMEs and docs as tests, so they cannot drift from the code: the first
 * TypeScript block of a Markdown file (or of one of its sections) is written to a file and imported
 * as written, and each `console.log(...)` must print what the comment after it says. Used by
 * `examples/src/docs-examples.test.ts` and by each package's `readme.test.ts`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { formatWithOptions } from 'node:util';
import { vi } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** A code block and what its `console.log` calls are expected to print, in order. */
export interface MarkdownExample {
  code: string;
  expected: string[];
}

/**
 * The `index`-th (from 0) ` ```lang ` block of a Markdown file relative to the repository root,
 * after the line `heading` when given, and the comment after each `console.log(...);` in it.
 */
export function markdownExample(
  file: string,
  options: { heading?: string; lang?: string; index?: number } = {},
): MarkdownExample {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const start = options.heading ? text.indexOf(`\n${options.heading}\n`) : 0;
  if (start < 0) throw new Error(`${file} has no section "${options.heading}"`);
  const blocks = [
    ...text.slice(start).matchAll(new RegExp(`\`\`\`${options.lang ?? 'ts'}\\n([\\s\\S]*?)\`\`\``, 'g')),
  ];
  const code = blocks[options.index ?? 0]?.[1];
  if (!code)
    throw new Error(
      `${file} has no ${options.lang ?? 'ts'} example${options.heading ? ` under "${options.heading}"` : ''}`,
    );
  const expected = [...code.matchAll(/console\.log\(.*\);\s*\/\/ (.*)$/gm)].map((match) => match[1]!);
  return { code, expected };
}

/** Where and how an example runs. */
export interface RunOptions {
  /** Folder to write the example into; it must be inside the repository, so `@treeagent/*` resolves. */
  directory: string;
  /** File name of the example (`.ts`). */
  name: string;
  /** Working directory while it runs (its relative paths: `.data`, `models/…`); restored afterwards. */
  cwd?: string;
  /** Environment variables while it runs; restored afterwards. */
  env?: Record<string, string>;
  /**
   * Calls the SIGTERM listeners the example added (and removes them), as a process manager stopping
   * it would: how an example that starts a server and waits for SIGTERM is stopped.
   */
  sigterm?: boolean;
}

/**
 * Imports `code` as a module and returns what it printed with `console.log`, each call formatted as
 * `console.log` formats it (what `process.stdout.write` prints is swallowed, not returned).
 */
export async function runExample(code: string, options: RunOptions): Promise<string[]> {
  mkdirSync(options.directory, { recursive: true });
  const file = join(options.directory, options.name);
  writeFileSync(file, code);
  const listeners = new Set(process.listeners('SIGTERM'));
  const previousCwd = process.cwd();
  const previousEnv = Object.fromEntries(
    Object.keys(options.env ?? {}).map((key) => [key, process.env[key]]),
  );
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    Object.assign(process.env, options.env);
    if (options.cwd) process.chdir(options.cwd);
    await import(file);
    return log.mock.calls.map((call) => formatWithOptions({ colors: false }, ...call));
  } finally {
    log.mockRestore();
    write.mockRestore();
    process.chdir(previousCwd);
    for (const [key, value] of Object.entries(previousEnv)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    if (options.sigterm) {
      for (const listener of process.listeners('SIGTERM')) {
        if (listeners.has(listener)) continue;
        process.removeListener('SIGTERM', listener);
        await (listener as (signal: NodeJS.Signals) => unknown)('SIGTERM');
      }
    }
  }
}

/**
 * Whether a printed line is what the comment says: equal once white space is ignored, where `…` in
 * the comment stands for any text.
 */
export function printedAs(line: string, comment: string): boolean {
  const squeeze = (text: string) => text.replace(/\s+/g, '');
  const pattern = squeeze(comment)
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${pattern}$`, 's').test(squeeze(line));
}

/** Runs the example and returns a list of differences (empty when every line is as its comment says). */
export async function checkExample(example: MarkdownExample, options: RunOptions): Promise<string[]> {
  if (!example.expected.length) return ['the example has no `console.log(…); // expected output` line'];
  const printed = await runExample(example.code, options);
  const problems: string[] = [];
  for (let i = 0; i < Math.max(printed.length, example.expected.length); i++) {
    const line = printed[i];
    const comment = example.expected[i];
    if (line === undefined) problems.push(`console.log #${i + 1} never printed; expected ${comment}`);
    else if (comment === undefined) problems.push(`console.log #${i + 1} printed ${line}, with no comment`);
    else if (!printedAs(line, comment))
      problems.push(`console.log #${i + 1} printed ${line}; expected ${comment}`);
  }
  return problems;
}
