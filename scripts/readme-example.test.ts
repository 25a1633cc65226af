import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownExample, printedAs } from './readme-example.js';

const root = resolve(import.meta.dirname, '..');

function testFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) return [];
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return /\.test\.ts$/.test(name) ? [path] : [];
  });
}

describe('package READMEs', () => {
  const packages = readdirSync(join(root, 'packages')).sort();
  const tests = [...testFiles(join(root, 'packages')), ...testFiles(join(root, 'examples'))].map((file) => ({
    file: relative(root, file),
    text: readFileSync(file, 'utf8'),
  }));

  it.each(packages)(
    'packages/%s/README.md starts with npm install (or npm create) and an example a test runs',
    (name) => {
      const readme = `packages/${name}/README.md`;
      const text = readFileSync(join(root, readme), 'utf8');
      const firstBlock = /```(\w+)\n([\s\S]*?)```/.exec(text);
      expect(firstBlock?.[1], `${readme}: the first block is the install command`).toBe('sh');
      const command = firstBlock![2]!.split('\n').find((line) => line.trim() && !line.trim().startsWith('#'));
      expect(command, readme).toMatch(/^npm (install|create) /);
      const runners = tests.filter(
        ({ text }) => text.includes(`'${readme}'`) && text.includes('markdownExample'),
      );
      expect(
        runners.map(({ file }) => file),
        `${readme}: no test runs its example (markdownExample('${readme}') in a *.test.ts)`,
      ).not.toEqual([]);
    },
  );
});

describe('the example runner (scripts/readme-example.ts)', () => {
  it('reads the expected output from the comment after each console.log', () => {
    const example = markdownExample('packages/core/README.md');
    expect(example.code).toContain("from '@treeagent/core'");
    expect(example.expected.length).toBeGreaterThan(0);
  });

  it('compares ignoring white space, with … for any text', () => {
    expect(printedAs('[ { id: 1, similarity: 0.9938 } ]', '[{ id: 1, similarity: 0.99… }]')).toBe(true);
    expect(
      printedAs(
        'Tree Agent listening on http://127.0.0.1:40123',
        'Tree Agent listening on http://127.0.0.1:…',
      ),
    ).toBe(true);
    expect(printedAs('Hello! Visit number 2.', 'Hello! Visit number 1.')).toBe(false);
    expect(printedAs('a.b', 'a?b')).toBe(false);
    expect(printedAs('Card blocked. And more', 'Card blocked.')).toBe(false);
  });
});
