import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gateFiles } from './publish-gate.js';

const scratch = mkdtempSync(join(tmpdir(), 'publish-gate-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function files(root: string, paths: string[]): void {
  for (const path of paths) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), path.endsWith('.json') ? '{}' : '');
  }
}

describe('the files the publish gate runs', () => {
  it("finds a scaffolded project's tests/*.yaml and data/utterances.tsv (npm create treeagent's layout)", () => {
    const project = join(scratch, 'scaffolded');
    files(project, [
      'package.json',
      'src/tree.json',
      'tests/conversations.yaml',
      'tests/more.yml',
      'data/utterances.tsv',
    ]);
    expect(gateFiles(join(project, 'src/tree.json'), {})).toEqual({
      tests: [join(project, 'tests/conversations.yaml'), join(project, 'tests/more.yml')],
      utterances: join(project, 'data/utterances.tsv'),
    });
  });

  it('prefers the files beside the tree, and what the flags give', () => {
    const project = join(scratch, 'beside');
    files(project, [
      'package.json',
      'src/tree.json',
      'src/conversations/a.yaml',
      'src/utterances.csv',
      'tests/conversations.yaml',
      'data/utterances.tsv',
    ]);
    const tree = join(project, 'src/tree.json');
    expect(gateFiles(tree, {})).toEqual({
      tests: [join(project, 'src/conversations/a.yaml')],
      utterances: join(project, 'src/utterances.csv'),
    });
    expect(gateFiles(tree, { tests: ['x.yaml'], utterances: join(project, 'data/utterances.tsv') })).toEqual({
      tests: ['x.yaml'],
      utterances: join(project, 'data/utterances.tsv'),
    });
    // --tests takes directories, as treeagent test does.
    expect(gateFiles(tree, { tests: [join(project, 'tests')] }).tests).toEqual([
      join(project, 'tests/conversations.yaml'),
    ]);
  });

  it('finds nothing outside a project when nothing is beside the tree', () => {
    const alone = join(scratch, 'alone');
    files(alone, ['tree.json', 'tests/conversations.yaml']);
    expect(gateFiles(join(alone, 'tree.json'), {})).toEqual({ tests: [], utterances: null });
  });
});
