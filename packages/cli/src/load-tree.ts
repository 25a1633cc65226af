import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createModels, readModelsConfig } from '@treeagent/ai-sdk';
import {
  defineTree,
  type FitMode,
  type MissingModels,
  type Tree,
  TreeAgentError,
  type TreeAgentOptions,
  type TreeDefinition,
  TreeValidationError,
} from '@treeagent/core';
import type { Embedder, LanguageModel } from '@treeagent/core/adapter';
import { definitionToDocument, documentToDefinition, type TreeDocument } from '@treeagent/core/document';
import { type ExtraChunks, withExtraChunks } from '@treeagent/core/evaluation';
import { cliModelHelp } from './model-help.js';
import { readTreeDocument } from './tree-document-file.js';
import { treeLoadError } from './user-errors.js';

/** What a tree module's default export receives when it is a function. */
export interface TreeFactoryContext {
  /** The configured language models (empty without configuration): a tree can adapt to their presence. */
  models: Record<string, LanguageModel>;
}

/** What a tree file gives the CLI. */
export interface LoadedTree {
  tree: Tree;
  /** Local files the tree was loaded from (the module and what it imports, outside node_modules): what to watch for hot reload. */
  files: string[];
  /** Agent options exported by the module (`embedder`, `models`, …), merged with the configured models. */
  agentOptions: Omit<TreeAgentOptions, 'tree'>;
  /** Where the models came from, for messages. */
  modelSource: string;
  path: string;
  /** The module's exports (the tree module, or a JSON tree's callback module). */
  exports: Record<string, unknown>;
  /** For a JSON tree: the document as read, and the absolute path of its callback module. */
  document?: { value: TreeDocument; text: string; modulePath: string | null };
  /** The module's `fitBase` export: what the fit at load is made over (`spaceFitter`'s `base`). */
  fitBase?: 'auto' | 'use-student' | 'cascade' | 'agent';
}

/** The bases a tree module may name in `export const fitBase` (`@treeagent/fit`'s `FitBase` strings). */
export const FIT_BASES = ['auto', 'use-student', 'cascade', 'agent'] as const;
export type FitBaseName = (typeof FIT_BASES)[number];

/**
 * Loads a tree file: a TypeScript or JavaScript module whose default export (or `tree` export) is a
 * `Tree`, a tree definition, or a function returning one; or a JSON tree document (docs/tree-format.md)
 * whose callbacks are the named exports of its `module`. The module may also export `embedder`,
 * `models`, `fit` (`true`, `false` or `'auto'`: `TreeAgentOptions.fit`) and `fitBase` (`'auto'`,
 * `'use-student'`, `'cascade'` or `'agent'`: what the fit is made over). Models are read from `--config`, else from a
 * `treeagent.config.json` next to the tree, else from the environment.
 */
export async function loadTree(
  path: string,
  options: {
    config?: string;
    /** Models that replace the configured ones, for the tree factory and the agent (`treeagent test`'s fixtures). */
    models?: Record<string, LanguageModel>;
    /**
     * `notice`: the agent options let the tree load without the models it needs, and its nodes that
     * need one answer with a notice (`lint`, `inspect`, `eval`, `dev`: authoring before models are
     * set up). Default `fail` (`serve`). Either way the messages name the CLI's configuration.
     */
    missingModels?: MissingModels;
  } = {},
): Promise<LoadedTree> {
  const absolute = resolve(path);
  if (!existsSync(absolute))
    throw new TreeAgentError('INVALID_INPUT', `The tree file ${absolute} does not exist.`);
  const configPath = options.config ?? join(dirname(absolute), 'treeagent.config.json');
  const config = existsSync(configPath) ? readModelsConfig(configPath) : null;
  if (options.config && !config)
    throw new TreeAgentError('INVALID_INPUT', `The configuration file ${options.config} does not exist.`);
  const configured = { ...createModels({ config }), ...options.models };
  let tree: Tree;
  const exported: Record<string, unknown> = {};
  const files = [absolute];
  let document: LoadedTree['document'];
  if (extname(absolute) === '.json') {
    // A wrong shape is reported with the callbacks' problems below, every problem at once.
    const { value, text, shape } = readTreeDocument(absolute);
    // A "module" that is not a string is one of the shape's problems (`shape`): nothing to import.
    const modulePath =
      typeof value.module === 'string' && value.module ? resolve(dirname(absolute), value.module) : null;
    if (modulePath) {
      if (!existsSync(modulePath)) {
        const missing = {
          message: `${absolute} names the callback module "${value.module}", but ${modulePath} does not exist.`,
          fix: 'Create it (its named exports are the callbacks), or correct "module".',
        };
        if (shape) throw new TreeValidationError([...shape.problems, missing]);
        throw new TreeAgentError('INVALID_INPUT', `${missing.message} ${missing.fix}`);
      }
      const module = await importTreeModule(modulePath, files).catch((error: unknown) => {
        throw treeLoadError(error, modulePath);
      });
      Object.assign(exported, module);
    }
    tree = defineTree(withShape(shape, () => documentToDefinition(value, exported)));
    document = { value, text, modulePath };
  } else {
    const module = await importTreeModule(absolute, files).catch((error: unknown) => {
      throw treeLoadError(error, absolute);
    });
    Object.assign(exported, module);
    const ownModels = (exported.models as Record<string, LanguageModel> | undefined) ?? {};
    tree = await toTree(exported.default ?? exported.tree, absolute, {
      models: { ...configured, ...ownModels },
    });
  }
  // Chunks added by the analytics "add as chunks" action to a TypeScript or JavaScript tree
  // (docs/analytics.md): <tree>.chunks.json beside it, merged here and watched by dev.
  const chunksFile = chunksFileOf(absolute);
  if (chunksFile) {
    files.push(chunksFile);
    tree = withExtraChunks(tree, readExtraChunks(chunksFile));
  }
  const models = { ...configured, ...((exported.models as Record<string, LanguageModel> | undefined) ?? {}) };
  const agentOptions: Omit<TreeAgentOptions, 'tree'> = {
    ...(exported.embedder ? { embedder: exported.embedder as Embedder } : {}),
    ...(exported.fit === undefined ? {} : { fit: fitExport(exported.fit, absolute) }),
    ...(Object.keys(models).length ? { models } : {}),
    missingModels: options.missingModels ?? 'fail',
    modelHelp: cliModelHelp,
  };
  const modelSource = Object.keys(models).length
    ? `models: ${Object.entries(models)
        .map(([name, model]) => `${name}=${model.id}`)
        .join(', ')}${config ? ` (from ${configPath})` : ''}`
    : 'no language model configured';
  return {
    tree,
    files: [...new Set(files)],
    agentOptions,
    modelSource,
    path: absolute,
    exports: exported,
    ...(document ? { document } : {}),
    ...(exported.fitBase === undefined ? {} : { fitBase: fitBaseExport(exported.fitBase, absolute) }),
  };
}

/**
 * The definition of a document, or — when its shape is wrong (`shape`) — one error listing the shape's
 * problems and those of its callbacks together (a conversion that fails on the wrong shape adds none).
 */
function withShape(shape: TreeValidationError | null, convert: () => TreeDefinition): TreeDefinition {
  if (!shape) return convert();
  try {
    convert();
  } catch (error) {
    if (error instanceof TreeValidationError)
      throw new TreeValidationError([...shape.problems, ...error.problems]);
  }
  throw shape;
}

/** The `<tree>.chunks.json` beside a TypeScript or JavaScript tree, when there is one. */
function chunksFileOf(absolute: string): string | null {
  const file = `${absolute.slice(0, absolute.length - extname(absolute).length)}.chunks.json`;
  return extname(absolute) !== '.json' && existsSync(file) ? file : null;
}

/** `tree` with the chunks of the `<tree>.chunks.json` beside `absolute` merged in, as `loadTree` does. */
export function withChunksFile(tree: Tree, absolute: string): Tree {
  const file = chunksFileOf(absolute);
  return file ? withExtraChunks(tree, readExtraChunks(file)) : tree;
}

function readExtraChunks(file: string): ExtraChunks {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as ExtraChunks;
    if (!value || typeof value.chunks !== 'object' || Array.isArray(value.chunks))
      throw new Error('no "chunks" object');
    return value;
  } catch (error) {
    throw new TreeAgentError(
      'INVALID_INPUT',
      `${file} is not a chunks file (${(error as Error).message}): it must be { "chunks": { "<node id>": ["text", …] } }. Fix it or delete it.`,
    );
  }
}

/** The tree of a module's default (or `tree`) export: a Tree, a definition, or a factory called with `context`. */
export async function toTree(value: unknown, path: string, context: TreeFactoryContext): Promise<Tree> {
  const resolved =
    typeof value === 'function' ? await (value as (context: TreeFactoryContext) => unknown)(context) : value;
  // The module has its own copy of @treeagent/core: recognise a Tree by its shape, not its class.
  if (isTree(resolved)) return resolved;
  if (resolved && typeof resolved === 'object' && Array.isArray((resolved as TreeDefinition).nodes))
    return defineTree(resolved as TreeDefinition);
  throw new TreeAgentError(
    'INVALID_INPUT',
    `${path} does not export a tree. Export default a Tree (defineTree(...)), a tree definition { nodes: [...] }, or a function returning one.`,
  );
}

/** Extensions loaded through tsx (TypeScript); the others are imported by Node itself. */
const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);
let loads = 0;

/**
 * Imports a tree module (or a JSON tree's callback module), fresh on every call (hot reload), and
 * adds to `files` the local files to watch. TypeScript goes through tsx's `tsImport`, registered for
 * this import only (the rest of the process stays plain Node), which also lists the local files the
 * tree imports. JavaScript is imported by Node, with a query that makes the module itself fresh: it
 * is watched, but its own imports are Node's cached modules (a change to them needs a restart), so
 * they are not.
 */
export async function importTreeModule(absolute: string, files: string[]): Promise<Record<string, unknown>> {
  const url = pathToFileURL(absolute).href;
  if (!TYPESCRIPT.has(extname(absolute))) {
    files.push(absolute);
    return import(`${url}?load=${++loads}`);
  }
  const { tsImport } = await import('tsx/esm/api');
  try {
    return fromCommonJs(
      await tsImport(url, {
        parentURL: import.meta.url,
        onImport: (imported) => {
          if (imported.startsWith('file:') && !imported.includes('/node_modules/'))
            files.push(fileURLToPath(imported));
        },
      }),
    );
  } catch (error) {
    throw topLevelAwaitError(error, absolute) ?? error;
  }
}

/**
 * A `.ts` file compiled as CommonJS (no `package.json` with `"type": "module"` above it) comes back
 * as `{ default: module.exports }`, its own `default` and named exports one level down (esbuild marks
 * them `__esModule`): the exports as the file wrote them.
 */
function fromCommonJs(module: Record<string, unknown>): Record<string, unknown> {
  const inner = module.default as Record<string, unknown> | null | undefined;
  if (!inner || typeof inner !== 'object' || inner.__esModule !== true) return module;
  const { __esModule: _marker, ...exports } = inner;
  return exports;
}

/**
 * A `.ts` file is compiled as CommonJS unless a `package.json` with `"type": "module"` is above it,
 * and CommonJS has no top-level await (esbuild: "Top-level await is currently not supported with the
 * "cjs" output format"). Say which file and the two ways out.
 */
function topLevelAwaitError(error: unknown, path: string): TreeAgentError | null {
  const message = error instanceof Error ? error.message : String(error);
  if (!/top-level await/i.test(message) || !/cjs/i.test(message)) return null;
  const where = /:(\d+):(\d+): ERROR/.exec(message);
  return new TreeAgentError(
    'INVALID_INPUT',
    `${path}${where ? `:${where[1]}:${where[2]}` : ''} uses top-level await, but it is loaded as CommonJS (no package.json with "type": "module" above it), where top-level await does not exist. Rename it to ${path.replace(/\.(c?ts|tsx)$/, '.mts')}, or add a package.json with { "type": "module" } in its directory (or a parent).`,
  );
}

/** A tree module's `fitBase` export: `spaceFitter`'s `base`, by name. */
function fitBaseExport(value: unknown, path: string): FitBaseName {
  if ((FIT_BASES as readonly unknown[]).includes(value)) return value as FitBaseName;
  throw new TreeAgentError(
    'INVALID_INPUT',
    `${path} exports fitBase = ${JSON.stringify(value)}; export one of ${FIT_BASES.map((base) => `'${base}'`).join(', ')} (docs/routing.md, "The base of the fit").`,
  );
}

/** A tree module's `fit` export: `TreeAgentOptions.fit`. */
function fitExport(value: unknown, path: string): FitMode {
  if (value === true || value === false || value === 'auto') return value;
  throw new TreeAgentError(
    'INVALID_INPUT',
    `${path} exports fit = ${JSON.stringify(value)}; export true (fit the embedding space at load whatever the tree), false (never) or 'auto' (the default).`,
  );
}

function isTree(value: unknown): value is Tree {
  const tree = value as Partial<Tree> | null;
  return (
    !!tree &&
    tree.nodes instanceof Map &&
    typeof tree.node === 'function' &&
    typeof tree.contentHash === 'string' &&
    Array.isArray(tree.chunks)
  );
}

/**
 * The document of a tree defined in code, as `treeagent export --json` writes it: a callback is
 * named after its export in the module, or `node<id><Key>` when it is not exported.
 */
export function codeTreeDocument(loaded: LoadedTree): TreeDocument {
  const names = new Map<unknown, string>();
  for (const [name, value] of Object.entries(loaded.exports))
    if (typeof value === 'function' && name !== 'default') names.set(value, name);
  return definitionToDocument(loaded.tree.definition, {
    nameOf: (callback, nodeId, key) =>
      names.get(callback) ?? `node${nodeId}${key.charAt(0).toUpperCase()}${key.slice(1)}`,
  });
}
