import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { loadTree } from '../load-tree.js';
import { main } from '../main.js';
import { capture } from '../test-support/capture.js';

// Inside the package, so that the generated module resolves @treeagent/core.
const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const TREE = `import { defineTree } from '@treeagent/core';
export function orderAfter() {
  return { nodeTarget: 2 };
}
export default defineTree({
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true, fallback: () => ({ nodeTarget: 3 }) },
    { id: 3, type: 'emit', parent: 2, name: 'spedizioni costi', chunks: ['quanto costa la spedizione'],
      emit: { message: { type: 'static', content: '7,90 €' } }, after: orderAfter },
  ],
});
`;

describe('treeagent export --json', () => {
  test('writes the document and a module that names every callback; the JSON tree loads the same', async () => {
    const source = join(scratch, 'tree.ts');
    writeFileSync(source, TREE);
    const output = capture();
    expect(await main(['export', source, '--json'], output)).toBe(0);
    expect(output.out.join('\n')).toMatch(/Wrote .*tree\.json \(3 nodes\)/);
    const document = JSON.parse(readFileSync(join(scratch, 'tree.json'), 'utf8'));
    expect(document).toMatchObject({ format: 'treeagent-tree', version: 1, module: './tree.callbacks.ts' });
    expect(document.nodes[1].callbacks).toEqual({ fallback: 'node2Fallback' });
    expect(document.nodes[2].callbacks).toEqual({ after: 'orderAfter' });
    const module = readFileSync(join(scratch, 'tree.callbacks.ts'), 'utf8');
    expect(module).toContain("export { orderAfter } from './tree.js';");
    expect(module).toContain("export const node2Fallback = treeCallback(source, 2, 'fallback');");
    const [fromCode, fromJson] = await Promise.all([loadTree(source), loadTree(join(scratch, 'tree.json'))]);
    expect(fromJson.tree.contentHash).toBe(fromCode.tree.contentHash);
    expect(fromJson.files).toContain(join(scratch, 'tree.callbacks.ts'));

    const again = capture();
    expect(await main(['export', source], again)).toBe(2);
    expect(again.err.join('\n')).toMatch(/tree\.json exists\. Pass --force/);
    expect(await main(['export', source, '--force'], capture())).toBe(0);
  });

  test('a JSON tree whose module lacks a callback says which node, which name, and what it exports', async () => {
    const file = join(scratch, 'broken.json');
    writeFileSync(join(scratch, 'broken.callbacks.ts'), 'export const greet = () => undefined;\n');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        module: './broken.callbacks.ts',
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, type: 'agent', parent: 1, isPrimary: true, callbacks: { fallback: 'sorry' } },
        ],
      }),
    );
    const output = capture();
    expect(await main(['inspect', file], output)).toBe(2);
    expect(output.err.join('\n')).toMatch(
      /node 2: callbacks.fallback is "sorry", which the module ".\/broken.callbacks.ts" does not export as a function\. Fix: Export a function named sorry .*\(it exports: greet\)/,
    );
  });
  test('a JSON tree with a wrong shape and a missing callback reports both at once', async () => {
    const file = join(scratch, 'both.json');
    writeFileSync(join(scratch, 'both.callbacks.ts'), 'export const greet = () => undefined;\n');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        module: './both.callbacks.ts',
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, type: 'agent', parent: 1, isPrimary: true, callbacks: { fallback: 'sorry' } },
          { id: 3, type: 'emit', parent: 2, name: 'shipping', similarityThreshold: 2, chunks: ['shipping'] },
        ],
      }),
    );
    const output = capture();
    expect(await main(['inspect', file], output)).toBe(2);
    const text = output.err.join('\n');
    // It used to report the shape alone, and the callback only once the shape was fixed.
    expect(text).toMatch(/The tree definition has 2 problems/);
    expect(text).toMatch(
      /node 3: at \/nodes\/2\/similarityThreshold \(node 3 "shipping"\): similarityThreshold must be from -1 to 1; it is 2\./,
    );
    expect(text).toMatch(
      /node 2: callbacks.fallback is "sorry", which the module ".\/both.callbacks.ts" does not export as a function/,
    );
    // A "module" of the wrong type is a shape problem, not a crash; a missing module joins the shape's.
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        module: 42,
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, type: 'agent', parent: 1, isPrimary: 'yes' },
        ],
      }),
    );
    const typed = capture();
    expect(await main(['inspect', file], typed)).toBe(2);
    expect(typed.err.join('\n')).toMatch(/at \/module: must be string/);
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        module: './gone.ts',
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, type: 'agent', parent: 1, isPrimary: 'yes' },
        ],
      }),
    );
    const gone = capture();
    expect(await main(['inspect', file], gone)).toBe(2);
    expect(gone.err.join('\n')).toMatch(/The tree definition has 2 problems/);
    expect(gone.err.join('\n')).toMatch(/names the callback module "\.\/gone\.ts", but .* does not exist/);
    // A JSON syntax error is still reported alone, with its place.
    writeFileSync(file, '{ "nodes": [ }');
    const syntax = capture();
    expect(await main(['inspect', file], syntax)).toBe(2);
    expect(syntax.err.join('\n')).toMatch(/is not valid JSON at line 1/);
  });
});
