import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main, type Output } from '@treeagent/cli';
import { afterAll, describe, expect, test } from 'vitest';

/** docs/getting-started.md is followed as a new user would: its tree, conversation test and utterances work. */
const guide = readFileSync(fileURLToPath(new URL('../../docs/getting-started.md', import.meta.url)), 'utf8');
const blocks = [...guide.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((match) => ({
  language: match[1]!,
  code: match[2]!,
}));
const scratch = mkdtempSync(fileURLToPath(new URL('.getting-started-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(name: string, language: string): string {
  const block = blocks.find((candidate) => candidate.language === language);
  expect(block, `the guide has a ${language || 'plain'} block`).toBeTruthy();
  const path = join(scratch, name);
  writeFileSync(path, block!.code);
  return path;
}

function capture(): Output & { text: () => string } {
  const lines: string[] = [];
  return {
    log: (line) => lines.push(line),
    write: (text) => lines.push(text),
    error: (line) => lines.push(line),
    text: () => lines.join('\n'),
  };
}

describe('docs/getting-started.md', () => {
  const tree = write('my-tree.ts', 'ts');
  const data = join(scratch, 'data');

  test('the tree lints clean', async () => {
    const output = capture();
    expect(await main(['lint', tree], output)).toBe(0);
    expect(output.text()).toContain('0 errors, 0 warning(s)');
  });

  test('the conversation test passes', async () => {
    const output = capture();
    expect(await main(['test', tree, write('my-tree.yaml', 'yaml')], output)).toBe(0);
    expect(output.text()).toContain('1 passed, 0 failed');
  });

  test('the routing evaluation is right on the given utterances', async () => {
    const utterances = blocks.find((block) => block.language === '' && block.code.includes('\t'))!.code;
    const path = join(scratch, 'my-tree.tsv');
    writeFileSync(path, utterances);
    const output = capture();
    expect(await main(['eval', tree, path, '--json', '--data', data], output)).toBe(0);
    const report = JSON.parse(output.text());
    expect(report.accuracy).toBe(1);
    expect(report.outOfScopeRecall).toBe(1);
  });
});
