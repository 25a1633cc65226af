import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

/** Suites that check an internal part of one package, not a contract a backend or binding implements. */
const INTERNAL: Record<string, string> = {
  describeRowSource: "the row sources of core's ChunkIndex (explore/chunk-index/)",
};

/** `[suite, file]` for every `export function describe…` of the packages' conformance and test-support folders. */
function suites(): [string, string][] {
  const found: [string, string][] = [];
  for (const name of readdirSync(join(root, 'packages')))
    for (const folder of ['conformance', 'test-support']) {
      const directory = join(root, 'packages', name, 'src', folder);
      let files: string[];
      try {
        files = readdirSync(directory).filter((file) => file.endsWith('.ts'));
      } catch {
        continue;
      }
      for (const file of files)
        for (const match of readFileSync(join(directory, file), 'utf8').matchAll(
          /export function (describe\w+)/g,
        ))
          found.push([match[1]!, `packages/${name}/src/${folder}/${file}`]);
    }
  return found;
}

describe("CONTRIBUTING.md's list of what a new store or provider implements", () => {
  it('names every conformance and backend suite of the repository', () => {
    const contributing = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
    const all = suites();
    expect(all.length).toBeGreaterThan(10);
    const missing = all.filter(([suite]) => !(suite in INTERNAL) && !contributing.includes(`\`${suite}\``));
    expect(missing, 'add each to the table under "A new store or provider" in CONTRIBUTING.md').toEqual([]);
  });
});
