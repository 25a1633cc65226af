import type { TreeVersion, VersionStore } from '@treeagent/core/adapter';
import type { VersionRoutesOptions } from '@treeagent/server';
import { loadTree } from '../load-tree.js';
import type { Output } from '../output.js';
import { environmentNames } from './environment-names.js';
import { gateVersion } from './gate-version.js';
import { whyUnloadable } from './unloadable.js';
import { fileContentOf } from './version-content.js';
import { versionFile } from './version-file.js';

/**
 * The versions routes of `treeagent dev` (the editor's Versions panel): the data directory's version
 * store, the environments of `TREEAGENT_ENVIRONMENTS`, and the same gate as `treeagent publish` —
 * the conversation tests and the routing eval beside the tree, with the environment's thresholds.
 */
export async function serverVersions(
  store: VersionStore,
  treePath: string,
  options: { config?: string; data?: string; utterances?: string },
  out: Output,
): Promise<VersionRoutesOptions> {
  const config = options.config ? { config: options.config } : {};
  const { tree } = await fileContentOf(treePath, config);
  return {
    store,
    tree,
    environments: environmentNames(),
    gate: async ({ version, gate, previous }) => {
      const result = await gateVersion(treePath, version, gate, previous, options, out);
      return { failures: result.failures, figures: result.figures };
    },
    // The turn facts record the loaded tree's content hash: load the version to know it.
    treeVersionOf: async (version: TreeVersion) => {
      const loadable = await versionFile(treePath, version, config);
      try {
        return (await loadTree(loadable.path, config)).tree.contentHash;
      } finally {
        loadable.dispose();
      }
    },
    // A rollback to a version that no longer loads is refused: the server would serve another one.
    unloadable: (version: TreeVersion) => whyUnloadable(treePath, version, config),
  };
}
