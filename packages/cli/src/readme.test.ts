import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { markdownExample } from '../../../scripts/readme-example.js';
import { main } from './main.js';
import { capture } from './test-support/capture.js';

const README = 'packages/cli/README.md';
// Inside the package, so that the tree file resolves @treeagent/core (as main.test.ts does).
const project = fileURLToPath(new URL(`../.scratch-readme-${process.pid}`, import.meta.url));
afterAll(() => rmSync(project, { recursive: true, force: true }));

test("the README's commands pass on its tree, conversation test and utterances, run from the project folder", async () => {
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'tree.ts'), markdownExample(README).code);
  writeFileSync(join(project, 'conversations.yaml'), markdownExample(README, { lang: 'yaml' }).code);
  writeFileSync(join(project, 'utterances.csv'), markdownExample(README, { lang: 'csv' }).code);
  const commands = markdownExample(README, { lang: 'sh', index: 1 })
    .code.split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line.startsWith('npx treeagent '))
    .map((line) => line.slice('npx treeagent '.length).split(/\s+/));
  expect(commands.map(([command]) => command)).toEqual(['lint', 'test', 'eval', 'dev']);
  const previous = process.cwd();
  process.chdir(project);
  try {
    // `dev` serves until stopped: its own tests (commands/dev.test.ts) start it; the others run here.
    for (const args of commands.filter(([command]) => command !== 'dev')) {
      const output = capture();
      const code = await main(args, output);
      expect(code, `treeagent ${args.join(' ')}:\n${output.lines.join('\n')}`).toBe(0);
    }
  } finally {
    process.chdir(previous);
  }
});
