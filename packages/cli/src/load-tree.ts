import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createModels, readModelsConfig } from '@treeagent/ai-sdk';
import {
  defineTree,
  definitionFromJSON,
  type Embedder,
  type LanguageModel,
  Tree,
  TreeAgentError,
  type TreeAgentOptions,
  type TreeDefinition,
  type TreeJSON,
} from '@treeagent/core';

/** What a tree file gives the CLI. */
export interface LoadedTree {
  tree: Tree;
  /** Agent options exported by the module (`embedder`, `models`, …), merged with the configured models. */
  agentOptions: Omit<TreeAgentOptions, 'tree'>;
  /** Where the models came from, for messages. */
  modelSource: string;
  path: string;
}

/**
 * Loads a tree file: a TypeScript or JavaScript module whose default export (or `tree` export) is a
 * `Tree`, a tree definition, or a function returning one; or a JSON tree definition. The module may
 * also export `embedder` and `models`. Models are read from `--config`, else from a
 * `treeagent.config.json` next to the tree, else from the environment.
 */
export async function loadTree(path: string, options: { config?: string } = {}): Promise<LoadedTree> {
  const absolute = resolve(path);
  if (!existsSync(absolute))
    throw new TreeAgentError('INVALID_INPUT', `The tree file ${absolute} does not exist.`);
  let tree: Tree;
  const exported: Record<string, unknown> = {};
  if (extname(absolute) === '.json') {
    tree = defineTree(definitionFromJSON(JSON.parse(readFileSync(absolute, 'utf8')) as TreeJSON));
  } else {
    Object.assign(exported, await import(pathToFileURL(absolute).href));
    tree = await toTree(exported.default ?? exported.tree, absolute);
  }
  const configPath = options.config ?? join(dirname(absolute), 'treeagent.config.json');
  const config = existsSync(configPath) ? readModelsConfig(configPath) : null;
  if (options.config && !config)
    throw new TreeAgentError('INVALID_INPUT', `The configuration file ${options.config} does not exist.`);
  const configured = createModels({ config });
  const ownModels = exported.models as Record<string, LanguageModel> | undefined;
  const models = { ...configured, ...(ownModels ?? {}) };
  const agentOptions: Omit<TreeAgentOptions, 'tree'> = {
    ...(exported.embedder ? { embedder: exported.embedder as Embedder } : {}),
    ...(Object.keys(models).length ? { models } : {}),
  };
  const modelSource = Object.keys(models).length
    ? `models: ${Object.entries(models)
        .map(([name, model]) => `${name}=${model.id}`)
        .join(', ')}${config ? ` (from ${configPath})` : ''}`
    : 'no language model configured';
  return { tree, agentOptions, modelSource, path: absolute };
}

async function toTree(value: unknown, path: string): Promise<Tree> {
  const resolved = typeof value === 'function' ? await (value as () => unknown)() : value;
  if (resolved instanceof Tree) return resolved;
  if (resolved && typeof resolved === 'object' && Array.isArray((resolved as TreeDefinition).nodes))
    return defineTree(resolved as TreeDefinition);
  throw new TreeAgentError(
    'INVALID_INPUT',
    `${path} does not export a tree. Export default a Tree (defineTree(...)), a tree definition { nodes: [...] }, or a function returning one.`,
  );
}
