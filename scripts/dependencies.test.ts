import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkPackage,
  coreImportsOfOtherPackages,
  importsOf,
  reachable,
  relativeImportsOf,
  undeclaredImports,
} from './dependencies.js';

const root = resolve(import.meta.dirname, '..');

describe('the dependency check (scripts/dependencies.ts)', () => {
  it('passes for every package of the repository', () => {
    const problems = readdirSync(join(root, 'packages')).flatMap((name) =>
      checkPackage(root, join(root, 'packages', name)),
    );
    expect(problems).toEqual([]);
  }, 120_000); // ~2 s alone; parses every shipped file, so a loaded machine needs more

  it('sees static, type-only, re-exported and dynamic imports, by literal or by const', () => {
    const source = `
      import { readFileSync } from 'node:fs';
      import path from 'path';
      import { a } from 'alpha/sub/path.js';
      import type { B } from '@scope/beta';
      import { type C } from 'gamma';
      export { d } from 'delta';
      export type { E } from 'epsilon';
      type F = import('zeta').F;
      const SPECIFIER = '@scope/optional';
      await import(SPECIFIER);
      await import('eta');
      import { local } from './local.js';
    `;
    expect(importsOf('x.ts', source)).toEqual([
      { file: 'x.ts', name: 'alpha', kind: 'static' },
      { file: 'x.ts', name: '@scope/beta', kind: 'type' },
      { file: 'x.ts', name: 'gamma', kind: 'type' },
      { file: 'x.ts', name: 'delta', kind: 'static' },
      { file: 'x.ts', name: 'epsilon', kind: 'type' },
      { file: 'x.ts', name: 'zeta', kind: 'type' },
      { file: 'x.ts', name: '@scope/optional', kind: 'dynamic' },
      { file: 'x.ts', name: 'eta', kind: 'dynamic' },
    ]);
    expect(relativeImportsOf('src/x.ts', source)).toEqual([{ from: 'src/x.ts', to: 'src/local.ts' }]);
  });

  it('rejects an undeclared import, and a static import of an optional peer that the root entry loads', () => {
    const manifest = {
      name: '@treeagent/cli',
      dependencies: { commander: '14.0.3' },
      peerDependencies: { '@treeagent/postgres': '^0.1.0', vitest: '^4.0.0' },
      peerDependenciesMeta: { '@treeagent/postgres': { optional: true }, vitest: { optional: true } },
    };
    const problems = undeclaredImports(
      manifest,
      [
        { file: 'src/main.ts', name: 'commander', kind: 'static' },
        { file: 'src/main.ts', name: '@treeagent/cli', kind: 'static' },
        { file: 'src/report.ts', name: '@treeagent/postgres', kind: 'dynamic' },
        { file: 'src/report.ts', name: 'pdfjs-dist', kind: 'dynamic' },
        { file: 'src/index.ts', name: '@treeagent/postgres', kind: 'static' },
        { file: 'src/conformance/suite.ts', name: 'vitest', kind: 'static' },
      ],
      new Set(['src/index.ts', 'src/main.ts', 'src/report.ts']),
    );
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(
      /src\/report\.ts imports "pdfjs-dist" \(at run time\).*add it to "dependencies"/,
    );
    expect(problems[1]).toMatch(
      /src\/index\.ts imports the optional peer dependency "@treeagent\/postgres" statically/,
    );
  });

  it('an optional dependency is imported as an optional peer is: by import() where the root entry loads', () => {
    const manifest = {
      name: '@treeagent/embedder-use',
      optionalDependencies: { 'onnxruntime-node': '1.30.0' },
    };
    expect(
      undeclaredImports(manifest, [{ file: 'src/onnx/model.ts', name: 'onnxruntime-node', kind: 'dynamic' }]),
    ).toEqual([]);
    const problems = undeclaredImports(manifest, [
      { file: 'src/index.ts', name: 'onnxruntime-node', kind: 'static' },
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/imports the optional peer dependency "onnxruntime-node" statically/);
  });

  it('rejects any import of another Tree Agent package by core, even a declared dynamic one', () => {
    const source = `
      import type { Embedder } from '@treeagent/core/adapter';
      const FIT = '@treeagent/fit';
      export const load = () => import(FIT);
      export const other = () => import('@treeagent/sqlite');
      type P = import('@treeagent/postgres').PgVectorStore;
    `;
    const core = {
      name: '@treeagent/core',
      peerDependencies: { '@treeagent/fit': '^0.1.0' },
      peerDependenciesMeta: { '@treeagent/fit': { optional: true } },
    };
    const problems = coreImportsOfOtherPackages(core, importsOf('src/engine/x.ts', source));
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(
      /^src\/engine\/x\.ts imports "@treeagent\/fit" \(dynamic\): @treeagent\/core depends on no other Tree Agent package/,
    );
    expect(problems[1]).toMatch(/"@treeagent\/sqlite" \(dynamic\)/);
    expect(problems[2]).toMatch(/"@treeagent\/postgres" \(type\)/);
    // Other packages import each other by name: that is what their dependencies are for.
    expect(coreImportsOfOtherPackages({ name: '@treeagent/cli' }, importsOf('x.ts', source))).toEqual([]);
  });

  it('follows relative imports from an entry point', () => {
    const edges = [
      { from: 'index.ts', to: 'a.ts' },
      { from: 'a.ts', to: 'b.ts' },
      { from: 'b.ts', to: 'a.ts' },
      { from: 'conformance/index.ts', to: 'c.ts' },
    ];
    expect([...reachable('index.ts', edges)].sort()).toEqual(['a.ts', 'b.ts', 'index.ts']);
  });
});
