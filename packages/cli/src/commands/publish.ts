import { relative } from 'node:path';
import { TreeAgentError } from '@treeagent/core';
import { type EnvironmentExperiment, type PublishGate, publishedFigures } from '@treeagent/core/adapter';
import type { Output } from '../output.js';
import { checkEnvironment } from '../versions/environment-names.js';
import { gateVersion } from '../versions/gate-version.js';
import { openVersionStore, type VersionStoreOptions } from '../versions/open-version-store.js';
import { recordVersion } from '../versions/record-version.js';
import { STORE_FLAGS } from '../versions/store-flags.js';
import { fileContentOf } from '../versions/version-content.js';
import { defineCommand } from './command-definition.js';

export interface PublishOptions extends VersionStoreOptions {
  version?: string;
  message?: string;
  config?: string;
  tests?: string[];
  utterances?: string;
  minAccuracy?: string;
  minOosRecall?: string;
  maxRecallDrop?: string;
}

/**
 * `treeagent publish <env> <tree>`: points the environment at a version (the file as it is, recorded
 * first, or `--version`) once it passes the environment's gate; exit 1 listing every failure when it
 * does not, 2 on bad input.
 */
export async function publishCommand(
  environment: string,
  treePath: string,
  options: PublishOptions,
  out: Output,
): Promise<number> {
  checkEnvironment(environment);
  if (!options.message?.trim())
    throw new TreeAgentError('INVALID_INPUT', 'Say why you publish: -m "what changed".');
  const thresholds = {
    minAccuracy: share(options.minAccuracy, '--min-accuracy'),
    minOosRecall: share(options.minOosRecall, '--min-oos-recall'),
    maxRecallDrop: share(options.maxRecallDrop, '--max-recall-drop'),
  };
  const config = options.config ? { config: options.config } : {};
  const content = await fileContentOf(treePath, config);
  const opened = await openVersionStore(options);
  try {
    const { store } = opened;
    const current = await recordVersion(store, content, { author: 'cli', message: options.message });
    const version = options.version ? await store.getVersion(content.tree, options.version) : current.version;
    if (!version)
      throw new TreeAgentError(
        'INVALID_INPUT',
        `The tree "${content.tree}" has no version "${options.version}": list them with treeagent versions ${treePath}.`,
      );
    const stored = await store.getEnvironment(content.tree, environment);
    // Thresholds given on the command line become the environment's gate, kept for the next publishes.
    const gate: PublishGate = {
      minAccuracy: thresholds.minAccuracy ?? stored?.gate.minAccuracy ?? null,
      minOosRecall: thresholds.minOosRecall ?? stored?.gate.minOosRecall ?? null,
      maxRecallDrop: thresholds.maxRecallDrop ?? stored?.gate.maxRecallDrop ?? null,
    };
    if (Object.values(thresholds).some((value) => value !== null))
      await store.setGate(content.tree, environment, gate);
    if (stored?.versionId === version.id) {
      out.log(`${environment} already serves version ${version.id} of ${content.tree}: nothing to publish.`);
      return 0;
    }
    if (stored?.experiment) {
      out.error(experimentRunning(environment, treePath, stored.experiment));
      return 1;
    }
    const previous = publishedFigures(await store.history(content.tree, environment));
    const result = await gateVersion(
      treePath,
      version,
      gate,
      previous,
      {
        ...config,
        ...(options.tests ? { tests: options.tests } : {}),
        ...(options.utterances ? { utterances: options.utterances } : {}),
        ...(options.data ? { data: options.data } : {}),
      },
      out,
    );
    const { files } = result;
    // Which files the gate found (beside the tree, or in the project's tests/ and data/): said, not guessed.
    if (files.tests.length || files.utterances)
      out.log(
        `The gate's files: ${[...files.tests, ...(files.utterances ? [files.utterances] : [])].map((file) => relative(process.cwd(), file) || file).join(', ')}`,
      );
    for (const line of result.ran) out.log(line);
    if (!files.tests.length && !files.utterances)
      out.log(
        "The gate had nothing to run: no conversation tests (conversations/*.yaml beside the tree, or the project's tests/*.yaml) and no utterances.",
      );
    if (result.failures.length) {
      out.error(`Publish of version ${version.id} to ${environment} refused:`);
      for (const failure of result.failures) out.error(`  - ${failure}`);
      return 1;
    }
    // The gate takes seconds: the same publish, or an experiment, may have come since.
    const now = await store.getEnvironment(content.tree, environment);
    if (now?.versionId === version.id) {
      out.log(`${environment} already serves version ${version.id} of ${content.tree}: nothing to publish.`);
      return 0;
    }
    if (now?.experiment) {
      out.error(experimentRunning(environment, treePath, now.experiment));
      return 1;
    }
    await store.moveEnvironment(content.tree, {
      environment,
      versionId: version.id,
      action: 'publish',
      author: 'cli',
      message: options.message,
      at: new Date(),
      figures: result.figures,
    });
    out.log(`Published version ${version.id} of ${content.tree} to ${environment}.`);
    return 0;
  } finally {
    await opened.close();
  }
}

/** A publish during an experiment would not reach new sessions: refused, naming the ways out. */
function experimentRunning(environment: string, treePath: string, experiment: EnvironmentExperiment): string {
  return `${environment} runs the experiment "${experiment.name}" (${experiment.variants.map((variant) => `${variant.versionId} ${variant.percent}%`).join(', ')}): new sessions get its variants, so a publish would not reach them. Promote a variant (treeagent experiment ${environment} ${treePath} --promote <version> -m "why"), or stop it (treeagent experiment ${environment} ${treePath} --stop), then publish.`;
}

/** A share between 0 and 1 given to `flag`, or null when not given. */
function share(value: string | undefined, flag: string): number | null {
  if (value === undefined) return null;
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || number > 1)
    throw new TreeAgentError(
      'INVALID_INPUT',
      `${flag} takes a share between 0 and 1 (e.g. 0.85), not "${value}".`,
    );
  return number;
}

/** `treeagent publish`: its help, arguments and options (the command table, `command-table.ts`). */
export const publishDefinition = defineCommand({
  name: 'publish',
  description:
    "Publish a version of the tree to an environment (draft, staging, production): it must pass the environment's gate — the conversation tests, and the routing eval's thresholds — or the publish is refused listing each failure (exit 1).",
  arguments: [
    {
      name: '<environment>',
      description: 'environment (draft, staging, production, or TREEAGENT_ENVIRONMENTS)',
    },
    { name: '<tree>', description: 'tree file (.json, .ts or .js)' },
  ],
  options: [
    { flags: '-m, --message <text>', description: 'why this publish (required)' },
    { flags: '--version <id>', description: 'the version to publish (default: the tree file as it is now)' },
    {
      flags: '--tests <files...>',
      description:
        "conversation tests the version must pass (default: conversations/*.yaml beside the tree, else the project's tests/*.yaml)",
    },
    {
      flags: '--utterances <file>',
      description:
        "labelled utterances of the routing eval (default: utterances.tsv beside the tree, else the project's data/utterances.tsv)",
    },
    {
      flags: '--min-accuracy <share>',
      description: "the environment's lowest routing accuracy (kept for next publishes)",
    },
    {
      flags: '--min-oos-recall <share>',
      description: "the environment's lowest out-of-scope recall (kept for next publishes)",
    },
    {
      flags: '--max-recall-drop <share>',
      description: "how far a node's recall may fall below its last published figure (default 0.05; kept)",
    },
    { flags: '--config <file>', description: 'model configuration' },
    ...STORE_FLAGS,
  ],
  run: ([environment, tree], options, out) => publishCommand(environment, tree, options, out),
});
