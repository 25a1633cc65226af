import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { conversationFiles } from './test.js';

const scratch = mkdtempSync(join(tmpdir(), 'test-files-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('treeagent test: the conversation files', () => {
  it('a directory stands for its .yaml and .yml files, sorted; files and missing paths stay as given', () => {
    const tests = join(scratch, 'tests');
    mkdirSync(tests);
    for (const name of ['b.yaml', 'a.yml', 'notes.md']) writeFileSync(join(tests, name), '');
    const single = join(scratch, 'one.yaml');
    writeFileSync(single, '');
    expect(conversationFiles([single, tests, join(scratch, 'missing.yaml')])).toEqual([
      single,
      join(tests, 'a.yml'),
      join(tests, 'b.yaml'),
      join(scratch, 'missing.yaml'),
    ]);
  });

  it('a directory without conversation files is an error naming it', () => {
    const empty = join(scratch, 'empty');
    mkdirSync(empty);
    expect(() => conversationFiles([empty])).toThrow(
      `${empty} is a directory with no conversation file (.yaml) in it.`,
    );
  });
});
