import type { Tree } from '@treeagent/core';
import type { LanguageModel } from '@treeagent/core/adapter';
import { type LoadedTree, toTree, withChunksFile } from './load-tree.js';

/** The nodes a tree factory builds only with models, or only without them. */
export interface FactoryVariants {
  /** The tree the factory builds when every model it asks for is configured. */
  tree: Tree;
  /** Nodes the factory builds only when every model is configured (not in the loaded tree). */
  onlyWithModels: { id: number; type: string; name?: string | undefined }[];
  /** Nodes of the loaded tree the factory leaves out when every model is configured (its offline variant). */
  onlyWithoutModels: { id: number; type: string; name?: string | undefined }[];
}

/**
 * A tree module whose default export is a factory `({ models }) => tree` may build a different tree
 * without models (an "offline variant" without its llm nodes). The factory is called again with every
 * model it asks for present (stand-ins that are never called) and the two trees are compared node by
 * node, so that `treeagent export` names every node the JSON leaves out: nothing is dropped silently.
 * Null when the export is not a factory, or builds the same nodes either way.
 */
export async function factoryVariants(loaded: LoadedTree): Promise<FactoryVariants | null> {
  const factory = loaded.exports.default ?? loaded.exports.tree;
  if (typeof factory !== 'function') return null;
  const configured = (loaded.agentOptions.models ?? {}) as Record<string, LanguageModel>;
  const tree = withChunksFile(
    await toTree(factory, loaded.path, { models: everyModel(configured) }),
    loaded.path,
  );
  const ids = (of: Tree) => new Set(of.nodes.keys());
  const withModels = ids(tree);
  const without = ids(loaded.tree);
  const describe = (of: Tree, id: number) => ({ id, type: of.node(id).type, name: of.node(id).name });
  const onlyWithModels = [...withModels].filter((id) => !without.has(id)).map((id) => describe(tree, id));
  const onlyWithoutModels = [...without]
    .filter((id) => !withModels.has(id))
    .map((id) => describe(loaded.tree, id));
  if (!onlyWithModels.length && !onlyWithoutModels.length) return null;
  return { tree, onlyWithModels, onlyWithoutModels };
}

/** The configured models, and a stand-in for any other name the factory reads (`models.default`, `'x' in models`). */
function everyModel(configured: Record<string, LanguageModel>): Record<string, LanguageModel> {
  const standIn = (name: string): LanguageModel => ({
    id: `export-stand-in:${name}`,
    generate: () => Promise.reject(new Error('a stand-in model of treeagent export is never called')),
    stream: () => {
      throw new Error('a stand-in model of treeagent export is never called');
    },
  });
  const models: Record<string, LanguageModel> = { default: standIn('default'), ...configured };
  return new Proxy(models, {
    get: (target, name) =>
      typeof name === 'string' && !(name in target) && name !== 'then'
        ? standIn(name)
        : Reflect.get(target, name),
    has: (target, name) => typeof name === 'string' || Reflect.has(target, name),
  });
}
