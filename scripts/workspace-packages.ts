/**
 * The workspace's packages and their entry points, read from each `package.json` "exports": inside
 * the repository an entry point (`./dist/x.js`) resolves to its TypeScript source (`./src/x.ts`), so
 * the type check, vitest and tsx need no build. Users get `dist/` through the same "exports".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

/** One published entry point: `@treeagent/core/adapter` and where its source and build live. */
export interface WorkspaceEntry {
  /** What users import: `@treeagent/core`, `@treeagent/core/adapter`, … */
  specifier: string;
  /** The package folder, relative to the repository root (`packages/core`). */
  directory: string;
  /** The subpath in "exports" (`.`, `./adapter`). */
  subpath: string;
  /** The compiled module, relative to the package folder (`./dist/adapter/index.js`). */
  dist: string;
  /** The TypeScript source, relative to the repository root (`./packages/core/src/adapter/index.ts`). */
  source: string;
}

/** Every published entry point of every package under packages/. */
export function workspaceEntries(): WorkspaceEntry[] {
  const entries: WorkspaceEntry[] = [];
  for (const name of readdirSync(join(ROOT, 'packages')).sort()) {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', name, 'package.json'), 'utf8')) as {
      name: string;
      exports: Record<string, string | { default: string }>;
    };
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'string') continue; // ./package.json
      entries.push({
        specifier: subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`,
        directory: `packages/${name}`,
        subpath,
        dist: target.default,
        source: `./packages/${name}/${target.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')}`,
      });
    }
  }
  return entries;
}

/** vite/vitest aliases: each entry point's specifier to its source file (exact matches). */
export function sourceAliases(): { find: RegExp; replacement: string }[] {
  return workspaceEntries().map((entry) => ({
    find: new RegExp(`^${entry.specifier.replace(/[/]/g, '\\/')}$`),
    replacement: join(ROOT, entry.source),
  }));
}
