import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { workspaceEntries } from './workspace-packages.js';

describe('workspace resolution', () => {
  it('tsconfig.json maps every published entry point to its source (tsc and tsx need no build)', () => {
    const { config, error } = ts.readConfigFile(
      resolve(import.meta.dirname, '../tsconfig.json'),
      ts.sys.readFile,
    );
    expect(error).toBeUndefined();
    const expected = Object.fromEntries(workspaceEntries().map((entry) => [entry.specifier, [entry.source]]));
    expect(config.compilerOptions.paths).toEqual(expected);
  });
});
