import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseTreeDocument } from '@treeagent/core/document';
import { ApiError, type CallbacksModuleSource, TreeEditConflict, writeFileAtomic } from '@treeagent/server';
import { withFileLock } from '../file-lock.js';
import { treeModulePath } from '../tree-module-path.js';
import {
  loadTypeScript,
  moduleCompilerOptions,
  moduleDiagnostics,
  moduleEnvironment,
  relativeName,
  type SourceFileCache,
} from './type-check-module.js';

/**
 * The callbacks module of a JSON tree file, for the editor's Callbacks panel (what `treeagent dev`
 * gives the server): always the module the tree file on disk names in `"module"`, inside the tree's
 * directory (`treeModulePath`), never a path from a request. Checks type it with the project's
 * TypeScript and tsconfig.json; a save compares the version and writes atomically under the file's
 * lock, then calls `onSaved` (dev reloads the agent, so the next turn runs the new code).
 */
export function fileCallbacksModule(
  treePath: string,
  options: { onSaved?: () => Promise<void> } = {},
): CallbacksModuleSource {
  const tree = resolve(treePath);
  const versionOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
  const cache: SourceFileCache = new Map();
  let compiler: Awaited<ReturnType<typeof loadTypeScript>> | null = null;

  /** The module the tree file names now (the tree may have been saved with another since). */
  const modulePath = (): string => {
    const document = parseTreeDocument(readFileSync(tree, 'utf8'), tree);
    if (!document.module)
      throw new ApiError(
        404,
        'NOT_CONFIGURED',
        `${tree} names no callbacks module. Add "module": "./tree.callbacks.ts" to it (a TypeScript file beside the tree) to write callbacks in the editor.`,
      );
    return treeModulePath(tree, document.module);
  };
  const typescript = async (path: string) => {
    compiler ??= await loadTypeScript(path);
    return compiler;
  };
  const check = async (text: string) => {
    const path = modulePath();
    const { ts } = await typescript(path);
    return moduleDiagnostics(
      ts,
      path,
      text,
      moduleCompilerOptions(ts, path),
      relativeName(dirname(tree), path),
      cache,
    );
  };

  return {
    async read() {
      const path = modulePath();
      const text = readFileSync(path, 'utf8');
      return { file: relativeName(dirname(tree), path), text, version: versionOf(text) };
    },
    check,
    async write(text, baseVersion) {
      const path = modulePath();
      const version = await withFileLock(path, () => {
        const current = versionOf(readFileSync(path, 'utf8'));
        if (current !== baseVersion) throw new TreeEditConflict(path, current);
        writeFileAtomic(path, text);
        return versionOf(text);
      });
      await options.onSaved?.();
      return version;
    },
    async environment() {
      const path = modulePath();
      const { ts } = await typescript(path);
      return moduleEnvironment(ts, path, readFileSync(path, 'utf8'), moduleCompilerOptions(ts, path), cache);
    },
    async compilerScript() {
      return readFileSync((await typescript(modulePath())).script, 'utf8');
    },
  };
}
