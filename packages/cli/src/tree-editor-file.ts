import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { defineTree, TreeAgentError } from '@treeagent/core';
import {
  documentToDefinition,
  formatTreeDocument,
  parseTreeDocument,
  type TreeDocument,
} from '@treeagent/core/document';
import type { LabelledUtterance } from '@treeagent/core/evaluation';
import {
  TreeEditConflict,
  type TreeEditorFile,
  type TreeEditorSource,
  writeFileAtomic,
} from '@treeagent/server';
import { fileCallbacksModule } from './callbacks/callbacks-module-file.js';
import { withFileLock } from './file-lock.js';
import { codeTreeDocument, importTreeModule, loadTree } from './load-tree.js';
import { loadUtterances } from './load-utterances.js';
import { treeModulePath } from './tree-module-path.js';
import { treeLoadError } from './user-errors.js';
import { watchFiles } from './watch-file.js';

/** Options of `fileTreeEditor`. */
export interface FileTreeEditorOptions {
  config?: string;
  /** Labelled utterances for threshold suggestions. Default: `utterances.{tsv,csv,json,jsonl}` beside the tree, when there is one. */
  utterances?: string;
  agentOptions?: TreeEditorSource['agentOptions'];
  /** The model "suggest chunks" asks (the configured default model), if any. */
  suggestionModel?: TreeEditorSource['suggestionModel'];
  /** Called after each save with its author (`admin:<id>`, `editor`): `treeagent dev` records a version. */
  onSaved?: (author: string) => Promise<void>;
  /** Called after the Callbacks panel saves the module: `treeagent dev` reloads the agent before answering. */
  onCallbacksSaved?: () => Promise<void>;
}

const UTTERANCE_FILES = ['utterances.tsv', 'utterances.csv', 'utterances.json', 'utterances.jsonl'];

/**
 * The tree editor's source for a tree file (what `treeagent dev` gives the server): a JSON tree is
 * read, built with its callback module's exports and written back with the stable layout, refusing
 * to overwrite a file that changed since it was read (`TreeEditConflict`): the check and the atomic
 * write hold the file's lock. Changes on disk are followed by watching the file's directory. A tree defined in code is
 * shown read-only, as the document `treeagent export --json` would write.
 */
export function fileTreeEditor(treePath: string, options: FileTreeEditorOptions = {}): TreeEditorSource {
  const path = resolve(treePath);
  const isJson = extname(path) === '.json';
  const utterancesPath =
    options.utterances !== undefined
      ? resolve(options.utterances)
      : (UTTERANCE_FILES.map((name) => join(dirname(path), name)).find((file) => existsSync(file)) ?? null);
  const versionOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
  let module: { key: string; exports: Record<string, unknown> } | null = null;
  let utterances: { key: string; value: LabelledUtterance[] } | null = null;

  const moduleExports = async (document: TreeDocument): Promise<Record<string, unknown>> => {
    if (!document.module) return {};
    // Only a script inside the tree's directory (after symbolic links), and the path checked is the
    // one imported: a draft cannot make the server run a file elsewhere on its disk.
    const modulePath = treeModulePath(path, document.module);
    const key = `${modulePath}:${statSync(modulePath).mtimeMs}`;
    if (module?.key !== key) {
      const exports = await importTreeModule(modulePath, []).catch((error: unknown) => {
        throw treeLoadError(error, modulePath);
      });
      module = { key, exports: { ...exports } };
    }
    return module.exports;
  };

  const readCode = async (): Promise<TreeEditorFile> => {
    const loaded = await loadTree(path, options.config ? { config: options.config } : {});
    const document = codeTreeDocument(loaded);
    return {
      path,
      version: versionOf(readFileSync(path, 'utf8')),
      document,
      editable: false,
      readOnlyReason: `This tree is defined in code (${path}). Convert it once with "treeagent export ${path} --json", then run treeagent dev on the JSON file to edit it here.`,
    };
  };

  return {
    agentOptions: options.agentOptions ?? {},
    // The module a JSON tree names, edited in the Callbacks panel (a tree in code has none to edit).
    ...(isJson
      ? {
          callbacks: fileCallbacksModule(
            path,
            options.onCallbacksSaved ? { onSaved: options.onCallbacksSaved } : {},
          ),
        }
      : {}),
    ...(options.suggestionModel ? { suggestionModel: options.suggestionModel } : {}),
    async read() {
      if (!isJson) return readCode();
      const text = readFileSync(path, 'utf8');
      return {
        path,
        version: versionOf(text),
        document: parseTreeDocument(text, path),
        editable: true,
        readOnlyReason: null,
      };
    },
    async version() {
      return versionOf(readFileSync(path, 'utf8'));
    },
    async callbackNames() {
      if (!isJson) {
        const file = await readCode();
        return [
          ...new Set([...file.document.nodes].flatMap((node) => Object.values(node.callbacks ?? {}))),
        ].sort();
      }
      const exports = await moduleExports(parseTreeDocument(readFileSync(path, 'utf8'), path));
      return Object.keys(exports)
        .filter((name) => name !== 'default' && typeof exports[name] === 'function')
        .sort();
    },
    async build(document) {
      if (!isJson) return (await loadTree(path, options.config ? { config: options.config } : {})).tree;
      return defineTree(documentToDefinition(document, await moduleExports(document)));
    },
    async write(document, baseVersion, writeOptions = {}) {
      if (!isJson)
        throw new TreeAgentError(
          'INVALID_INPUT',
          `${path} is defined in code: the editor saves JSON trees only. Convert it with "treeagent export ${path} --json".`,
        );
      const text = formatTreeDocument(document);
      // Compare-and-swap: the version check and the write hold the file's lock (this process and
      // others), and the write replaces the file atomically (temporary file, then rename).
      const version = await withFileLock(path, () => {
        const current = versionOf(readFileSync(path, 'utf8'));
        if (current !== baseVersion && !writeOptions.force) throw new TreeEditConflict(path, current);
        writeFileAtomic(path, text);
        return versionOf(text);
      });
      await options.onSaved?.(writeOptions.author ?? 'editor');
      return version;
    },
    watch(listener) {
      let last: string | null = null;
      return watchFiles([path], () => {
        let version: string;
        try {
          version = versionOf(readFileSync(path, 'utf8'));
        } catch {
          return; // Being replaced or deleted: the next change reports it.
        }
        if (version !== last) {
          last = version;
          listener(version);
        }
      });
    },
    async utterances() {
      if (!utterancesPath || !existsSync(utterancesPath)) return [];
      const key = `${statSync(utterancesPath).mtimeMs}`;
      if (utterances?.key !== key) utterances = { key, value: loadUtterances(utterancesPath) };
      return utterances.value;
    },
  };
}
