import { type TreeVersion, treeVersionOf, type VersionStore } from '@treeagent/core/adapter';
import type { FileContent } from './version-content.js';

/**
 * Records `content` as a version of its tree, over the tree's latest version (its parent, for the
 * diff). The same content as a stored version records nothing and returns that version.
 */
export async function recordVersion(
  store: VersionStore,
  content: FileContent,
  save: { author: string; message: string },
): Promise<{ version: TreeVersion; created: boolean }> {
  const [latest] = await store.listVersions(content.tree);
  const version = treeVersionOf({ ...content, ...save }, latest ?? null);
  if (latest?.id === version.id) return { version: latest, created: false };
  return store.addVersion(version);
}
