import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, relative } from 'node:path';
import { TreeAgentError } from '@treeagent/core';
import {
  type CallbackDiagnostic,
  type CallbacksTypeEnvironment,
  callbackDiagnostics,
} from '@treeagent/server/api';
import type * as TypeScript from 'typescript';

type TypeScriptApi = typeof TypeScript;

/** The TypeScript compiler of the project the module is in (its `typescript`), else the CLI's own. */
export async function loadTypeScript(modulePath: string): Promise<{ ts: TypeScriptApi; script: string }> {
  const require = createRequire(modulePath);
  for (const resolveFrom of [
    () => require.resolve('typescript'),
    () => createRequire(import.meta.url).resolve('typescript'),
  ]) {
    let path: string;
    try {
      path = resolveFrom();
    } catch {
      continue;
    }
    return { ts: createRequire(import.meta.url)(path) as TypeScriptApi, script: path };
  }
  throw new TreeAgentError(
    'INVALID_INPUT',
    `TypeScript is not installed where the callbacks module is (${dirname(modulePath)}): the editor type-checks the module with the project's compiler. Install it in the project: npm install -D typescript`,
  );
}

/**
 * The compiler options of the project of `modulePath` (the nearest tsconfig.json above it, else
 * TypeScript's defaults for a NodeNext project), for checking the one module: nothing is emitted and
 * declaration files are trusted (`skipLibCheck`), so a check reads the module and what it imports.
 */
export function moduleCompilerOptions(ts: TypeScriptApi, modulePath: string): TypeScript.CompilerOptions {
  const config = ts.findConfigFile(dirname(modulePath), (file) => existsSync(file));
  const base: TypeScript.CompilerOptions = config
    ? ts.parseJsonConfigFileContent(
        ts.readConfigFile(config, ts.sys.readFile).config ?? {},
        ts.sys,
        dirname(config),
        undefined,
        config,
      ).options
    : {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        strict: true,
      };
  return { ...base, noEmit: true, skipLibCheck: true, incremental: false, composite: false };
}

/** Parsed files kept between checks while their text is unchanged (the lib and `@types` files are large). */
export type SourceFileCache = Map<string, { text: string; source: TypeScript.SourceFile }>;

/** One program over the module with `text` as its content; what the compiler read is recorded. */
function programOf(
  ts: TypeScriptApi,
  modulePath: string,
  text: string,
  options: TypeScript.CompilerOptions,
  cache: SourceFileCache,
) {
  const host = ts.createCompilerHost(options, true);
  host.getCurrentDirectory = () => projectDirectory(options, modulePath);
  const files = new Map<string, string>();
  const directories = new Set<string>();
  const realpaths = new Map<string, string>();
  const readFile = (file: string) => {
    if (file === modulePath) return text;
    const content = ts.sys.readFile(file);
    if (content !== undefined) files.set(file, content);
    return content;
  };
  host.readFile = readFile;
  host.fileExists = (file) => file === modulePath || readFile(file) !== undefined;
  host.getSourceFile = (file, language) => {
    const content = readFile(file);
    if (content === undefined) return undefined;
    if (file === modulePath) return ts.createSourceFile(file, content, language, true);
    const cached = cache.get(file);
    if (cached?.text === content) return cached.source;
    const source = ts.createSourceFile(file, content, language, true);
    cache.set(file, { text: content, source });
    return source;
  };
  host.directoryExists = (directory) => {
    const exists = ts.sys.directoryExists(directory);
    if (exists) directories.add(directory);
    return exists;
  };
  host.realpath = (path) => {
    const real = ts.sys.realpath ? ts.sys.realpath(path) : path;
    if (real !== path) realpaths.set(path, real);
    return real;
  };
  const program = ts.createProgram({ rootNames: [modulePath], options, host });
  return { program, files, directories, realpaths };
}

/** The diagnostics of the module itself (syntax, then types), with 1-based line and column. */
export function moduleDiagnostics(
  ts: TypeScriptApi,
  modulePath: string,
  text: string,
  options: TypeScript.CompilerOptions,
  file: string,
  cache: SourceFileCache = new Map(),
): CallbackDiagnostic[] {
  const { program } = programOf(ts, modulePath, text, options, cache);
  const source = program.getSourceFile(modulePath);
  if (!source) return [];
  return callbackDiagnostics(ts, program, source, file);
}

/**
 * Everything the compiler read to check the module (lib files, the project's types, package.json
 * files on the way), so a browser can check it the same way without a file system.
 */
export function moduleEnvironment(
  ts: TypeScriptApi,
  modulePath: string,
  text: string,
  options: TypeScript.CompilerOptions,
  cache: SourceFileCache = new Map(),
): CallbacksTypeEnvironment {
  const { program, files, directories, realpaths } = programOf(ts, modulePath, text, options, cache);
  program.getSemanticDiagnostics(program.getSourceFile(modulePath));
  files.delete(modulePath);
  return {
    modulePath,
    currentDirectory: projectDirectory(options, modulePath),
    defaultLibLocation: dirname(ts.getDefaultLibFilePath(options)),
    compilerOptions: options as Record<string, unknown>,
    files: Object.fromEntries(files),
    directories: [...directories],
    realpaths: Object.fromEntries(realpaths),
  };
}

/** Where the project is: its tsconfig.json's directory, else the module's. */
function projectDirectory(options: TypeScript.CompilerOptions, modulePath: string): string {
  return dirname(typeof options.configFilePath === 'string' ? options.configFilePath : modulePath);
}

/** `path` relative to `directory`, as a tree names its module (`./tree.callbacks.ts`). */
export function relativeName(directory: string, path: string): string {
  const name = relative(directory, path);
  return name.startsWith('.') ? name : `./${name}`;
}
