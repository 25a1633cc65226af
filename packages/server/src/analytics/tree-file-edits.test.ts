import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shownFile } from './tree-file-edits.js';

describe('shownFile: a written file as staff see it', () => {
  const cwd = join('/srv', 'shop-assistant');
  it('is relative to the working directory when inside it', () => {
    expect(shownFile(join(cwd, 'data', 'utterances.tsv'), cwd)).toBe(join('data', 'utterances.tsv'));
    expect(shownFile(join(cwd, 'tree.json'), cwd)).toBe('tree.json');
  });

  it('is the name alone outside it: no absolute path of the server', () => {
    expect(shownFile(join('/tmp', 'x', 'tree.chunks.json'), cwd)).toBe('tree.chunks.json');
    expect(shownFile(join('/srv', 'shop-assistant-old', 'tree.json'), cwd)).toBe('tree.json');
  });
});
