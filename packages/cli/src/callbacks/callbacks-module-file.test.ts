import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCoreDeclarations, REPOSITORY_NODE_MODULES } from '../test-support/core-declarations.js';
import { fileCallbacksModule } from './callbacks-module-file.js';

/**
 * The callbacks module of a JSON tree, type-checked with the real TypeScript compiler against the
 * real `@treeagent/core` types (the repository's node_modules, linked as a project's would be).
 */
const scratch = mkdtempSync(join(tmpdir(), 'callbacks-module-'));
const project = join(scratch, 'project');
mkdirSync(join(project, 'src'), { recursive: true });
symlinkSync(REPOSITORY_NODE_MODULES, join(project, 'node_modules'));
writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
writeFileSync(
  join(project, 'tsconfig.json'),
  JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', strict: true, types: [] } }),
);
const tree = join(project, 'src/tree.json');
const module = join(project, 'src/tree.callbacks.ts');
writeFileSync(
  tree,
  JSON.stringify({
    format: 'treeagent-tree',
    version: 1,
    module: './tree.callbacks.ts',
    nodes: [{ id: 1, type: 'root' }],
  }),
);
const GOOD = `import type { BeforeCallback } from '@treeagent/core';\n\nexport const greet: BeforeCallback = async (_self, context) => {\n  context.sessionState.set('seen', true);\n};\n`;
const BAD = GOOD.replace(
  "context.sessionState.set('seen', true);",
  'const count: number = context.input.original;',
);
writeFileSync(module, GOOD);

beforeAll(() => ensureCoreDeclarations(), 180_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('fileCallbacksModule', () => {
  it('type-checks the module with the project types: file, line, column, message', async () => {
    const callbacks = fileCallbacksModule(tree);
    expect(await callbacks.check(GOOD)).toEqual([]);
    const [error, ...rest] = await callbacks.check(BAD);
    expect(rest).toEqual([]);
    expect(error).toMatchObject({ file: './tree.callbacks.ts', line: 4, column: 9, code: 2322 });
    expect(error!.message).toContain("Type 'string' is not assignable to type 'number'");
  }, 60_000);

  it('saves with a version check, atomically, then calls onSaved', async () => {
    let saved = 0;
    const callbacks = fileCallbacksModule(tree, {
      onSaved: async () => {
        saved++;
      },
    });
    const { version, file, text } = await callbacks.read();
    expect({ file, text }).toEqual({ file: './tree.callbacks.ts', text: GOOD });
    const next = GOOD.replace("'seen'", "'visited'");
    const newVersion = await callbacks.write(next, version);
    expect(readFileSync(module, 'utf8')).toBe(next);
    expect(saved).toBe(1);
    await expect(callbacks.write(GOOD, version)).rejects.toThrow(/changed on disk/);
    expect(readFileSync(module, 'utf8')).toBe(next);
    expect((await callbacks.read()).version).toBe(newVersion);
  });

  it('serves what a browser needs: the lib files and @treeagent/core types, not the module', async () => {
    const environment = await fileCallbacksModule(tree).environment();
    const paths = Object.keys(environment.files);
    expect(paths.some((path) => path.endsWith('lib.es2022.d.ts'))).toBe(true);
    expect(paths.some((path) => /core\/dist\/index\.d\.ts$/.test(path))).toBe(true);
    expect(paths).not.toContain(environment.modulePath);
    expect(environment.compilerOptions).toMatchObject({ noEmit: true, skipLibCheck: true });
  }, 60_000);

  it('edits only the module the tree file names, inside its directory', async () => {
    writeFileSync(
      tree,
      JSON.stringify({
        format: 'treeagent-tree',
        version: 1,
        module: '../outside.ts',
        nodes: [{ id: 1, type: 'root' }],
      }),
    );
    await expect(fileCallbacksModule(tree).read()).rejects.toThrow(/outside the tree's directory/);
    writeFileSync(
      tree,
      JSON.stringify({ format: 'treeagent-tree', version: 1, nodes: [{ id: 1, type: 'root' }] }),
    );
    await expect(fileCallbacksModule(tree).read()).rejects.toThrow(/names no callbacks module/);
  });
});
