import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main as treeagent } from '@treeagent/cli';
import { afterAll, expect, test } from 'vitest';
import { markdownExample } from '../../../scripts/readme-example.js';
import { type Io, main } from './main.js';

// Inside the repository, so that the generated tree resolves @treeagent/core to its source.
const scratch = fileURLToPath(new URL(`../.scratch-readme-${process.pid}`, import.meta.url));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const io: Io = { interactive: false, ask: async () => '', log: () => {}, error: () => {} };
const quiet = { log: () => {}, write: () => {}, error: () => {} };

test("the README's npm create lines make projects with the scripts it names, whose tests pass", async () => {
  // `npm install && npm test` on a created project, from the packed tarballs: scripts/pack-install-test.ts.
  const lines = markdownExample('packages/create-treeagent/README.md', { lang: 'sh' })
    .code.split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line.startsWith('npm create treeagent@latest '));
  expect(lines).toHaveLength(2);
  for (const [index, line] of lines.entries()) {
    const args = line
      .slice('npm create treeagent@latest '.length)
      .split(/\s+/)
      .filter((arg) => arg !== '--');
    const directory = join(scratch, String(index), args[0]!);
    expect(await main([directory, ...args.slice(1)], io), line).toBe(0);
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.scripts)).toEqual(['dev', 'chat', 'test', 'eval', 'fit', 'lint']);
    const tree = join(directory, args.includes('ts') ? 'src/tree.ts' : 'src/tree.json');
    expect(await treeagent(['test', tree, join(directory, 'tests/conversations.yaml')], quiet), line).toBe(0);
  }
});
