import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isUserFacingEvent, splitDynamicContent, USER_FACING_EVENT_TYPES } from './client.js';

const SOURCE = dirname(fileURLToPath(import.meta.url));
const IMPORT = /^\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/gms;

/** Every module `entry` reaches through its imports and re-exports (type-only ones too), and what else they import. */
function reach(entry: string): { modules: string[]; external: string[] } {
  const modules = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string) => {
    if (modules.has(file)) return;
    modules.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      if (specifier!.startsWith('.')) visit(resolve(dirname(file), specifier!.replace(/\.js$/, '.ts')));
      else external.add(specifier!);
    }
  };
  visit(resolve(SOURCE, entry));
  return { modules: [...modules], external: [...external] };
}

describe('@treeagent/core/client', () => {
  it('reaches no Node module and no package: a browser bundle can import it whole', () => {
    const { modules, external } = reach('client.ts');
    expect(external).toEqual([]);
    expect(modules.length).toBeGreaterThan(3);
  });

  it('exports the pure helpers the web app uses', () => {
    expect(splitDynamicContent('a {{b.png}}', [])).toEqual([{ type: 'text', text: 'a {{b.png}}' }]);
    expect(isUserFacingEvent('text-delta')).toBe(true);
    expect(isUserFacingEvent('explore-decision')).toBe(false);
    expect([...USER_FACING_EVENT_TYPES]).toContain('turn-end');
  });
});
