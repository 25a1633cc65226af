/**
 * The TypeScript compiler in a Web Worker (docs/editor.md, "Callbacks"): it checks the callbacks
 * module as the server does — the compiler the server uses (sent as its source), the project's
 * compiler options, and every file the server's compiler read to check it (lib files, the project's
 * types), so the panel shows the same errors, file, line and column, before anything is saved.
 */
import type * as TypeScript from 'typescript';
import type { CallbackDiagnostic, CallbacksTypeEnvironment } from '../../../../src/api-types';
import { callbackDiagnostics } from '../../../../src/editor/callback-diagnostics';

declare const ts: typeof TypeScript;
declare function importScripts(...urls: string[]): void;
/** The worker's scope (the app is typed with the DOM's lib, whose `postMessage` is a window's). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<TypeCheckRequest>) => void) | null;
  postMessage(message: TypeCheckAnswer): void;
};

/** What the page sends: the compiler and the environment once, then texts to check. */
export type TypeCheckRequest =
  | { kind: 'start'; compiler: string; environment: CallbacksTypeEnvironment; file: string }
  | { kind: 'check'; id: number; text: string };
export type TypeCheckAnswer =
  | { kind: 'started' }
  | { kind: 'failed'; message: string }
  | { kind: 'checked'; id: number; diagnostics: CallbackDiagnostic[] };

let environment: CallbacksTypeEnvironment | null = null;
let file = '';
const sources = new Map<string, TypeScript.SourceFile>();
let previous: TypeScript.Program | undefined;

function check(text: string): CallbackDiagnostic[] {
  const env = environment!;
  const options = env.compilerOptions as TypeScript.CompilerOptions;
  const files = env.files;
  const directories = new Set(env.directories);
  const host: TypeScript.CompilerHost = {
    getSourceFile: (name, language) => {
      if (name === env.modulePath) return ts.createSourceFile(name, text, language, true);
      const content = files[name];
      if (content === undefined) return undefined;
      let source = sources.get(name);
      if (!source) {
        source = ts.createSourceFile(name, content, language, true);
        sources.set(name, source);
      }
      return source;
    },
    getDefaultLibFileName: (compilerOptions) =>
      `${env.defaultLibLocation}/${ts.getDefaultLibFileName(compilerOptions)}`,
    getDefaultLibLocation: () => env.defaultLibLocation,
    writeFile: () => undefined,
    getCurrentDirectory: () => env.currentDirectory,
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (name) => name === env.modulePath || name in files,
    readFile: (name) => (name === env.modulePath ? text : files[name]),
    directoryExists: (directory) => directories.has(directory),
    realpath: (path) => env.realpaths[path] ?? path,
    getDirectories: (directory) =>
      [...directories]
        .filter(
          (candidate) =>
            candidate.startsWith(`${directory}/`) && !candidate.slice(directory.length + 1).includes('/'),
        )
        .map((candidate) => candidate.slice(directory.length + 1)),
  };
  const program = ts.createProgram({
    rootNames: [env.modulePath],
    options,
    host,
    ...(previous ? { oldProgram: previous } : {}),
  });
  previous = program;
  const source = program.getSourceFile(env.modulePath);
  if (!source) return [];
  return callbackDiagnostics(ts, program, source, file);
}

scope.onmessage = (event) => {
  const request = event.data;
  const answer = (message: TypeCheckAnswer) => scope.postMessage(message);
  if (request.kind === 'start') {
    try {
      // The compiler's source as a script of this worker (it defines the global `ts`).
      const url = URL.createObjectURL(new Blob([request.compiler], { type: 'text/javascript' }));
      importScripts(url);
      URL.revokeObjectURL(url);
      environment = request.environment;
      file = request.file;
      answer({ kind: 'started' });
    } catch (error) {
      answer({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
    return;
  }
  answer({ kind: 'checked', id: request.id, diagnostics: check(request.text) });
};
