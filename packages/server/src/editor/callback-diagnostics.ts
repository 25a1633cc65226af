import type { CallbackDiagnostic } from '../api-types.js';

/** What the mapping reads of a diagnostic of the TypeScript compiler (its `Diagnostic`). */
interface CompilerDiagnostic<Message> {
  category: number;
  code: number;
  start: number | undefined;
  length: number | undefined;
  messageText: Message;
}

/**
 * The errors of the callbacks module as the editor shows them (docs/editor.md, "Callbacks"): its
 * syntax errors, or when it has none its type errors, each with `file` (the module as the tree
 * names it) and a 1-based line and column. One mapping for the server's check (the project's
 * compiler, in `treeagent dev`) and the editor's web worker (the compiler the server sent), so both
 * show the same errors at the same place. Typed by what it uses of TypeScript's API, so it needs no
 * `typescript` import: pass the compiler (`ts`), the program and the module's source file.
 *
 * @example
 * const source = program.getSourceFile(modulePath);
 * const diagnostics = source ? callbackDiagnostics(ts, program, source, './tree.callbacks.ts') : [];
 */
export function callbackDiagnostics<Source, Message>(
  ts: {
    DiagnosticCategory: { Error: number };
    flattenDiagnosticMessageText(messageText: Message, newLine: string): string;
  },
  program: {
    getSyntacticDiagnostics(source: Source): readonly CompilerDiagnostic<Message>[];
    getSemanticDiagnostics(source: Source): readonly CompilerDiagnostic<Message>[];
  },
  source: Source & { getLineAndCharacterOfPosition(position: number): { line: number; character: number } },
  file: string,
): CallbackDiagnostic[] {
  const syntax = program.getSyntacticDiagnostics(source);
  return (syntax.length ? syntax : program.getSemanticDiagnostics(source))
    .filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error)
    .map((diagnostic) => {
      const start = diagnostic.start ?? 0;
      const { line, character } = source.getLineAndCharacterOfPosition(start);
      return {
        file,
        line: line + 1,
        column: character + 1,
        message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
        code: diagnostic.code,
        start,
        length: diagnostic.length ?? 0,
      };
    });
}
