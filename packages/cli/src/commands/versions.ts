import type { Output } from '../output.js';
import { environmentNames } from '../versions/environment-names.js';
import { openVersionStore, type VersionStoreOptions } from '../versions/open-version-store.js';
import { recordVersion } from '../versions/record-version.js';
import { STORE_FLAGS } from '../versions/store-flags.js';
import { fileContentOf } from '../versions/version-content.js';
import { defineCommand } from './command-definition.js';

/** `treeagent versions <tree>`: records the tree file as a version (when it changed), lists the versions and environments. */
export async function versionsCommand(
  treePath: string,
  options: VersionStoreOptions & { config?: string; message?: string; diff?: boolean },
  out: Output,
): Promise<number> {
  const content = await fileContentOf(treePath, options.config ? { config: options.config } : {});
  const opened = await openVersionStore(options);
  try {
    const { store } = opened;
    const saved = await recordVersion(store, content, {
      author: 'cli',
      message: options.message ?? 'recorded by treeagent versions',
    });
    if (saved.created) out.log(`Recorded version ${saved.version.id} of ${content.tree}.`);
    const environments = await store.listEnvironments(content.tree);
    const served = new Map<string, string[]>();
    for (const environment of environments)
      if (environment.versionId)
        served.set(environment.versionId, [...(served.get(environment.versionId) ?? []), environment.name]);
    out.log(`Versions of ${content.tree} (${opened.where}), newest first:`);
    for (const version of await store.listVersions(content.tree)) {
      const where = served.get(version.id);
      out.log(
        `  ${version.id}  ${version.createdAt.toISOString()}  ${version.author}  ${version.message}${where ? `  [${where.join(', ')}]` : ''}${version.id === saved.version.id ? '  (the file now)' : ''}`,
      );
      if (options.diff && version.diff) for (const line of version.diff.split('\n')) out.log(`      ${line}`);
    }
    out.log('Environments:');
    for (const name of environmentNames()) {
      const environment = environments.find((each) => each.name === name);
      const experiment = environment?.experiment;
      out.log(
        `  ${name.padEnd(12)} ${environment?.versionId ?? '(nothing published)'}${experiment ? `  experiment "${experiment.name}" since ${experiment.startedAt.toISOString()}: ${experiment.variants.map((variant) => `${variant.versionId} ${variant.percent}%`).join(', ')} of new sessions` : ''}`,
      );
    }
    return 0;
  } finally {
    await opened.close();
  }
}

/** `treeagent versions`: its help, arguments and options (the command table, `command-table.ts`). */
export const versionsDefinition = defineCommand({
  name: 'versions',
  description:
    "Record the tree file as a version when its content changed (the same content is one version), then list the tree's versions (newest first) and what each environment serves.",
  arguments: [{ name: '<tree>', description: 'tree file (.json, .ts or .js)' }],
  options: [
    { flags: '-m, --message <text>', description: 'the message of the version recorded now' },
    { flags: '--diff', description: 'show what each version changed from its parent' },
    { flags: '--config <file>', description: 'model configuration (a tree in code is loaded)' },
    ...STORE_FLAGS,
  ],
  run: ([tree], options, out) => versionsCommand(tree, options, out),
});
