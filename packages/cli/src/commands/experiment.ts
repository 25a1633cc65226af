import { TreeAgentError } from '@treeagent/core';
import { checkSplit, type ExperimentVariant, promoteVariant } from '@treeagent/core/adapter';
import type { Output } from '../output.js';
import { checkEnvironment } from '../versions/environment-names.js';
import { openVersionStore, type VersionStoreOptions } from '../versions/open-version-store.js';
import { STORE_FLAGS } from '../versions/store-flags.js';
import { whyUnloadable } from '../versions/unloadable.js';
import { fileContentOf } from '../versions/version-content.js';
import { defineCommand } from './command-definition.js';

export interface ExperimentOptions extends VersionStoreOptions {
  split?: string[];
  name?: string;
  stop?: boolean;
  promote?: string;
  message?: string;
  config?: string;
}

/**
 * `treeagent experiment <env> <tree>`: starts an experiment that splits the environment's new
 * conversations between versions (`--split <version>=<percent>…`), ends it (`--stop`), or ends it
 * by publishing the winner (`--promote <version>`, one action).
 */
export async function experimentCommand(
  environment: string,
  treePath: string,
  options: ExperimentOptions,
  out: Output,
): Promise<number> {
  checkEnvironment(environment);
  const actions = [options.split?.length, options.stop, options.promote].filter(Boolean).length;
  if (actions !== 1)
    throw new TreeAgentError(
      'INVALID_INPUT',
      'Say what to do: --split <version>=<percent> <version>=<percent> to start, --stop to end, or --promote <version> -m "why" to publish the winner.',
    );
  const config = options.config ? { config: options.config } : {};
  const { tree } = await fileContentOf(treePath, config);
  const opened = await openVersionStore(options);
  try {
    const { store } = opened;
    if (options.stop) {
      const served = await store.getEnvironment(tree, environment);
      if (!served?.experiment) {
        out.error(`${environment} runs no experiment of ${tree}: nothing to stop.`);
        return 1;
      }
      await store.setExperiment(tree, environment, null);
      out.log(
        `Stopped the experiment "${served.experiment.name}" of ${environment}: new sessions get its version${served.versionId ? ` ${served.versionId}` : ''} again.`,
      );
      return 0;
    }
    if (options.promote) {
      if (!options.message?.trim())
        throw new TreeAgentError('INVALID_INPUT', 'Say why you promote it: -m "won the experiment".');
      const ended = await promoteVariant(store, {
        tree,
        environment,
        versionId: options.promote,
        author: 'cli',
        message: options.message,
      }).catch((error: unknown) => {
        // The CLI names its flag.
        if (TreeAgentError.hasCode(error, 'INVALID_INPUT'))
          throw new TreeAgentError('INVALID_INPUT', `--promote ${options.promote}: ${error.message}`);
        throw error;
      });
      out.log(
        `Promoted version ${options.promote} of ${tree} to ${environment} and ended the experiment "${ended.name}".`,
      );
      return 0;
    }
    const variants = options.split!.map(parseVariant);
    try {
      checkSplit(variants);
    } catch (error) {
      throw new TreeAgentError('INVALID_INPUT', (error as Error).message);
    }
    for (const variant of variants) {
      const version = await store.getVersion(tree, variant.versionId);
      if (!version)
        throw new TreeAgentError(
          'INVALID_INPUT',
          `The tree "${tree}" has no version "${variant.versionId}": list them with treeagent versions ${treePath}.`,
        );
      // A variant the server cannot load would silently serve the environment's version instead.
      const unloadable = await whyUnloadable(treePath, version, config);
      if (unloadable)
        throw new TreeAgentError(
          'INVALID_INPUT',
          `Version ${variant.versionId} cannot be a variant: it cannot be loaded any more (${unloadable}). Nothing started. Choose versions that load (the current file's, or ones saved with the callbacks module on disk now).`,
        );
    }
    const name = options.name ?? `${environment}-${new Date().toISOString()}`;
    await store.setExperiment(tree, environment, { name, variants, startedAt: new Date() });
    out.log(
      `Experiment "${name}" on ${environment}: ${variants.map((variant) => `${variant.versionId} ${variant.percent}%`).join(', ')} of new sessions.`,
    );
    if (variants.length > 2)
      out.log(
        `The decision (the Analytics page) compares each variant with the first, the control, at the significance level divided by ${variants.length - 1} (Bonferroni); treeagent report --experiment compares two at a time.`,
      );
    return 0;
  } finally {
    await opened.close();
  }
}

function parseVariant(text: string): ExperimentVariant {
  const match = /^([0-9a-f]{12})=(\d+(?:\.\d+)?)$/.exec(text.trim());
  if (!match)
    throw new TreeAgentError(
      'INVALID_INPUT',
      `--split takes <version>=<percent>, e.g. 3f2a9c01d4e7=50; got "${text}".`,
    );
  return { versionId: match[1]!, percent: Number(match[2]) };
}

/** `treeagent experiment`: its help, arguments and options (the command table, `command-table.ts`). */
export const experimentDefinition = defineCommand({
  name: 'experiment',
  description:
    "Split an environment's new conversations between versions by a stable hash of the session (sticky), stop the split, or promote the winner in one action (docs/versions.md).",
  arguments: [
    {
      name: '<environment>',
      description: 'environment (draft, staging, production, or TREEAGENT_ENVIRONMENTS)',
    },
    { name: '<tree>', description: 'tree file (.json, .ts or .js)' },
  ],
  options: [
    {
      flags: '--split <variants...>',
      description: 'start: <version>=<percent> for each variant (percents add up to 100)',
    },
    { flags: '--name <name>', description: "the experiment's name (default: the environment and the time)" },
    { flags: '--stop', description: 'end the experiment; new sessions get the environment’s version again' },
    {
      flags: '--promote <version>',
      description: 'publish this variant to the environment and end the experiment',
    },
    { flags: '-m, --message <text>', description: 'why (required with --promote)' },
    { flags: '--config <file>', description: 'model configuration (a tree in code is loaded)' },
    ...STORE_FLAGS,
  ],
  run: ([environment, tree], options, out) => experimentCommand(environment, tree, options, out),
});
