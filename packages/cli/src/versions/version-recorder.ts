import { TreeAgentError } from '@treeagent/core';
import type { VersionStore } from '@treeagent/core/adapter';
import type { Output } from '../output.js';
import { recordVersion } from './record-version.js';
import { fileContentOf } from './version-content.js';

/**
 * What `treeagent dev` calls when the tree is saved (its start, an editor save, a file change
 * picked up by the watch): records the file as a version — once per content — and says so. A
 * failure to record is reported and does not stop the server.
 */
export function versionRecorder(
  store: VersionStore,
  treePath: string,
  options: { config?: string },
  out: Output,
): (author: string, message: string) => Promise<void> {
  return async (author, message) => {
    try {
      const { version, created } = await recordVersion(store, await fileContentOf(treePath, options), {
        author,
        message,
      });
      if (created) out.log(`Recorded version ${version.id} (${author}: ${message}).`);
    } catch (error) {
      out.error(
        `Could not record a version of ${treePath}: ${TreeAgentError.isInstance(error) ? error.message : String(error)}`,
      );
    }
  };
}
