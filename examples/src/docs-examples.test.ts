import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test, vi } from 'vitest';

/**
 * The first TypeScript example of each README runs as written, and each `console.log(...)` prints
 * what its trailing comment says, so the examples cannot drift from the code.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const readmes = [
  'README.md',
  'packages/core/README.md',
  'packages/embedder-use/README.md',
  'packages/components/README.md',
  'docs/forms.md',
];
const scratch = mkdtempSync(join(fileURLToPath(new URL('.', import.meta.url)), '.docs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('README examples', () => {
  test.each(readmes)('%s', async (readme) => {
    const text = readFileSync(join(root, readme), 'utf8');
    const code = /```ts\n([\s\S]*?)```/.exec(text)?.[1];
    expect(code, `${readme} starts with a TypeScript example`).toBeTruthy();
    const expected = [...code!.matchAll(/console\.log\(.*\);\s*\/\/ (.*)$/gm)].map((match) => match[1]);
    expect(expected.length).toBeGreaterThan(0);
    const file = join(scratch, `${readme.replaceAll('/', '-')}.ts`);
    writeFileSync(file, code!);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await import(file);
      expect(log.mock.calls.map((call) => String(call[0]))).toEqual(expected);
    } finally {
      log.mockRestore();
    }
  });
});

/** Sections of docs/ that start with a working example: the first TypeScript block after the heading. */
const sections = [{ file: 'docs/models.md', heading: '## Tools' }];

describe('docs section examples', () => {
  test.each(sections)('$file $heading', async ({ file, heading }) => {
    const text = readFileSync(join(root, file), 'utf8');
    const start = text.indexOf(`\n${heading}\n`);
    expect(start, `${file} has a section "${heading}"`).toBeGreaterThanOrEqual(0);
    const code = /```ts\n([\s\S]*?)```/.exec(text.slice(start))?.[1];
    expect(code, `${file} ${heading} has a TypeScript example`).toBeTruthy();
    const expected = [...code!.matchAll(/console\.log\(.*\);\s*\/\/ (.*)$/gm)].map((match) => match[1]);
    expect(expected.length).toBeGreaterThan(0);
    const name = `${file}-${heading}`.replaceAll(/[^A-Za-z0-9]+/g, '-');
    const path = join(scratch, `${name}.ts`);
    writeFileSync(path, code!);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await import(path);
      expect(log.mock.calls.map((call) => String(call[0]))).toEqual(expected);
    } finally {
      log.mockRestore();
    }
  });
});
