import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deploymentLocale } from './deployment-locale.js';

function treeWithConfig(config: unknown): string {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-locale-'));
  if (config !== undefined) writeFileSync(join(directory, 'treeagent.config.json'), JSON.stringify(config));
  return join(directory, 'tree.ts');
}

describe("the deployment's locale of serve and dev", () => {
  it('takes --locale first, then "locale" of treeagent.config.json beside the tree, else none', () => {
    const tree = treeWithConfig({ models: {}, locale: 'it' });
    expect(deploymentLocale('es', tree)).toBe('es');
    expect(deploymentLocale(undefined, tree)).toBe('it');
    expect(deploymentLocale(undefined, treeWithConfig(undefined))).toBeUndefined();
    expect(deploymentLocale(undefined, treeWithConfig({ models: {} }))).toBeUndefined();
  });

  it('refuses a "locale" that is not a language name, naming the file', () => {
    const tree = treeWithConfig({ locale: 42 });
    expect(() => deploymentLocale(undefined, tree)).toThrow(
      /treeagent\.config\.json: "locale" must be a language/,
    );
  });
});
