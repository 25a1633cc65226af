import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { callbackDiagnostics } from './callback-diagnostics.js';

const MODULE = '/project/tree.callbacks.ts';

/** The real compiler over one module in memory (no lib: the errors below need none). */
function check(text: string) {
  const options: ts.CompilerOptions = { noLib: true, strict: true, noEmit: true, types: [] };
  const host = ts.createCompilerHost(options);
  host.getSourceFile = (name, language) =>
    name === MODULE ? ts.createSourceFile(name, text, language, true) : undefined;
  host.fileExists = (name) => name === MODULE;
  host.readFile = (name) => (name === MODULE ? text : undefined);
  const program = ts.createProgram({ rootNames: [MODULE], options, host });
  const source = program.getSourceFile(MODULE)!;
  return callbackDiagnostics(ts, program, source, './tree.callbacks.ts');
}

describe('callbackDiagnostics', () => {
  it('gives a type error with the file as the tree names it, a 1-based line and column, and its span', () => {
    const text = 'export const a = 1;\nexport const b: string = a;\n';
    const [error, ...rest] = check(text);
    expect(rest).toEqual([]);
    expect(error).toMatchObject({ file: './tree.callbacks.ts', line: 2, column: 14, code: 2322 });
    expect(text.slice(error!.start, error!.start + error!.length)).toBe('b');
    expect(error!.message).toContain("Type 'number' is not assignable to type 'string'");
  });

  it('gives only the syntax errors of a module that does not parse (no type errors on top)', () => {
    const diagnostics = check('export const b: string = 1;\nexport const = ;\n');
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(diagnostics.every((diagnostic) => diagnostic.line === 2)).toBe(true);
    expect(diagnostics.map((diagnostic) => diagnostic.code)).not.toContain(2322);
  });
});
