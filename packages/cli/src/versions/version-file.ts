import { rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { TreeAgentError } from '@treeagent/core';
import type { TreeVersion } from '@treeagent/core/adapter';
import { sha256 } from '@treeagent/core/adapter';
import { fileContentOf } from './version-content.js';

/**
 * A tree file that holds `version`, for loading it (the publish gate, a server that serves it), and
 * how to remove it. The tree file itself when it holds that version now; for an older version of a
 * JSON tree, its document written beside the tree (so its `module` resolves the same), with the
 * callbacks module as it is now — refused when the module changed since, since the version's
 * callbacks are no longer on disk. A tree in code can only be loaded at its current version.
 */
export async function versionFile(
  treePath: string,
  version: TreeVersion,
  options: { config?: string } = {},
): Promise<{ path: string; dispose(): void }> {
  const path = resolve(treePath);
  const current = await fileContentOf(path, options);
  const callbacksHash = current.callbacks === null ? null : sha256(current.callbacks);
  const same = { path, dispose: () => {} };
  if (sha256(current.document) === version.documentHash && callbacksHash === version.callbacksHash)
    return same;
  if (extname(path) !== '.json')
    throw new TreeAgentError(
      'INVALID_INPUT',
      `${path} is a tree in code and holds another version than ${version.id}: check out the code of version ${version.id} (saved ${version.createdAt.toISOString()}) and run the command again, or publish the current version.`,
    );
  if (callbacksHash !== version.callbacksHash)
    throw new TreeAgentError(
      'INVALID_INPUT',
      `Version ${version.id} of "${version.tree}" was saved with another callbacks module than the one beside ${path} now: restore the module of that version (saved ${version.createdAt.toISOString()}), or publish a version saved with the current module.`,
    );
  const copy = join(dirname(path), `.${basename(path, '.json')}.version-${version.id}.json`);
  writeFileSync(copy, version.document);
  return { path: copy, dispose: () => rmSync(copy, { force: true }) };
}
