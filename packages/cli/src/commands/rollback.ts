import { rollbackTarget } from '@treeagent/core/adapter';
import type { Output } from '../output.js';
import { checkEnvironment } from '../versions/environment-names.js';
import { openVersionStore, type VersionStoreOptions } from '../versions/open-version-store.js';
import { STORE_FLAGS } from '../versions/store-flags.js';
import { fileContentOf } from '../versions/version-content.js';
import { defineCommand } from './command-definition.js';

/**
 * `treeagent rollback <env> <tree>`: returns the environment to the version published before the
 * current one (no gate: it served before). Exit 1 when there is none.
 */
export async function rollbackCommand(
  environment: string,
  treePath: string,
  options: VersionStoreOptions & { message?: string; config?: string },
  out: Output,
): Promise<number> {
  checkEnvironment(environment);
  const { tree } = await fileContentOf(treePath, options.config ? { config: options.config } : {});
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
    const from = history.at(-1)!.versionId;
    await store.moveEnvironment(tree, {
      environment,
      versionId: target,
      action: 'rollback',
      author: 'cli',
      message: options.message ?? `rollback from ${from}`,
      at: new Date(),
      figures: null,
    });
    out.log(`Rolled ${environment} back from version ${from} to ${target} of ${tree}.`);
    return 0;
  } finally {
    await opened.close();
  }
}

/** `treeagent rollback`: its help, arguments and options (the command table, `command-table.ts`). */
export const rollbackDefinition = defineCommand({
  name: 'rollback',
  description:
    'Return an environment to the version published there before the current one (a second rollback goes one further back); exit 1 when there is none.',
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
