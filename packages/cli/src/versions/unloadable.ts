import type { TreeVersion } from '@treeagent/core/adapter';
import { loadTree } from '../load-tree.js';
import { versionFile } from './version-file.js';

/**
 * Why a stored version of the tree at `treePath` cannot be loaded now — as `treeagent serve --env`
 * would load it: its document with the callbacks module on disk — or `null` when it loads. A
 * rollback to it, or an experiment with it, is refused on this answer rather than served as
 * another version (docs/versions.md).
 */
export async function whyUnloadable(
  treePath: string,
  version: TreeVersion,
  config: { config?: string },
): Promise<string | null> {
  try {
    const file = await versionFile(treePath, version, config);
    try {
      await loadTree(file.path, config);
    } finally {
      file.dispose();
    }
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
