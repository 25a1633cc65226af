import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

/**
 * Sources cite the project's own spec, docs/concepts.md, by section number ("docs/concepts.md §5"):
 * every citation must name a section that exists, and nothing may cite "SPEC §N", a file that is
 * not in this repository.
 */
const repository = fileURLToPath(new URL('../..', import.meta.url));
const concepts = readFileSync(join(repository, 'docs/concepts.md'), 'utf8');
const sections = new Set([...concepts.matchAll(/^## (\d+)\. /gm)].map((match) => Number(match[1])));

function sourceFiles(folder: string, out: string[] = []): string[] {
  for (const name of readdirSync(folder)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(folder, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|tsx|js|md)$/.test(name)) out.push(path);
  }
  return out;
}

const files = [
  ...sourceFiles(join(repository, 'packages')),
  ...sourceFiles(join(repository, 'examples')),
  ...sourceFiles(join(repository, 'docs')),
];

describe('citations of docs/concepts.md', () => {
  test('its sections are numbered 1…n', () => {
    expect([...sections]).toEqual(Array.from({ length: sections.size }, (_, index) => index + 1));
    expect(sections.size).toBeGreaterThanOrEqual(10);
  });

  test('every "docs/concepts.md §N" in the sources names an existing section', () => {
    const broken: string[] = [];
    let citations = 0;
    for (const file of files) {
      for (const match of readFileSync(file, 'utf8').matchAll(/concepts\.md §(\d+)/g)) {
        citations++;
        if (!sections.has(Number(match[1]))) broken.push(`${relative(repository, file)}: §${match[1]}`);
      }
    }
    expect(broken).toEqual([]);
    expect(citations).toBeGreaterThan(20);
  });

  test('nothing cites "SPEC §N", a file outside this repository', () => {
    const offenders = files
      .filter((file) => !file.endsWith('concepts-citations.test.ts'))
      .filter((file) => /SPEC §\d/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(repository, file));
    expect(offenders).toEqual([]);
  });
});
