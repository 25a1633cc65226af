import { rollbackTarget } from '@treeagent/core/adapter';
import type { Output } from '../output.js';
import { checkEnvironment } from '../versions/environment-names.js';
import { openVersionStore, type VersionStoreOptions } from '../versions/open-version-store.js';
import { STORE_FLAGS } from '../versions/store-flags.js';
import { whyUnloadable } from '../versions/unloadable.js';
import { fileContentOf } from '../versions/version-content.js';
import { defineCommand } from './command-definition.js';

/**
 * `treeagent rollback <env> <tree>`: returns the environment to the version published before the
 * current one (no gate: it served before), ending a running experiment (an emergency wins). Exit 1,
 * changing nothing, when there is none or it cannot be loaded any more.
 */
export async function rollbackCommand(
  environment: string,
  treePath: string,
  options: VersionStoreOptions & { message?: string; config?: string },
  out: Output,
): Promise<number> {
  checkEnvironment(environment);
  const config = options.config ? { config: options.config } : {};
  const { tree } = await fileContentOf(treePath, config);
  const opened = await openVersionStore(options);
  try {
    const { store } = opened;
    const history = await store.history(tree, environment);
    const target = rollbackTarget(history);
    if (!target) {
      out.error(
        `${environment} has no earlier publish of ${tree} to return to (${history.length ? `it serves ${history.at(-1)!.versionId}, its first publish` : 'nothing was published there'}).`,
      );
      return 1;
    }
    const version = await store.getVersion(tree, target);
    const unloadable = version ? await whyUnloadable(treePath, version, config) : 'it is not in the store';
    if (unloadable) {
      out.error(
        `${environment} cannot roll back to version ${target} of ${tree}: it cannot be loaded any more (${unloadable}). Nothing changed. Restore what it was saved with, or publish a version that loads: treeagent publish ${environment} ${treePath} -m "fix".`,
      );
      return 1;
    }
    const served = await store.getEnvironment(tree, environment);
    const from = served?.versionId ?? history.at(-1)!.versionId;
    // An emergency wins over a running experiment: the rollback ends it, and its message says so.
    const experiment = served?.experiment ?? null;
    const message = options.message ?? `rollback from ${from}`;
    await store.moveEnvironment(tree, {
      environment,
      versionId: target,
      action: 'rollback',
      author: 'cli',
      message: experiment ? `${message} (ended the experiment "${experiment.name}")` : message,
      at: new Date(),
      figures: null,
    });
    if (experiment) await store.setExperiment(tree, environment, null);
    out.log(
      `Rolled ${environment} back from version ${from} to ${target} of ${tree}${experiment ? `, and ended its experiment "${experiment.name}": every new session gets ${target}` : ''}.`,
    );
    return 0;
  } finally {
    await opened.close();
  }
}

/** `treeagent rollback`: its help, arguments and options (the command table, `command-table.ts`). */
export const rollbackDefinition = defineCommand({
  name: 'rollback',
  description:
    'Return an environment to the version published there before the current one (a second rollback goes one further back), ending a running experiment; exit 1, changing nothing, when there is none or it cannot be loaded any more.',
  arguments: [
    {
      name: '<environment>',
      description: 'environment (draft, staging, production, or TREEAGENT_ENVIRONMENTS)',
    },
    { name: '<tree>', description: 'tree file (.json, .ts or .js)' },
  ],
  options: [
    { flags: '-m, --message <text>', description: 'why (default: "rollback from <version>")' },
    { flags: '--config <file>', description: 'model configuration (a tree in code is loaded)' },
    ...STORE_FLAGS,
  ],
  run: ([environment, tree], options, out) => rollbackCommand(environment, tree, options, out),
});
