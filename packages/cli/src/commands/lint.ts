import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  formatProblem,
  type SpaceStatus,
  TreeAgent,
  TreeAgentError,
  type TreeValidationError,
} from '@treeagent/core';
import { defaultEmbedderFor } from '@treeagent/core/adapter';
import {
  calibrationReads,
  type LintThreshold,
  type LintWarning,
  lintReport,
  lintTree,
} from '@treeagent/core/evaluation';
import { loadTree } from '../load-tree.js';
import { missingModelLines } from '../missing-model-lines.js';
import type { Output } from '../output.js';
import { describeSpace, fitOptions, shippedFitFile } from '../space.js';
import { describeThreshold } from '../thresholds.js';
import { defineCommand } from './command-definition.js';

/**
 * `treeagent lint <tree>`: validation errors (exit 1) and warnings: unreachable nodes, ambiguous
 * sibling subtrees, children without chunks, distant anchors, switch/empty nodes whose before
 * exploration passes through, agents without fallback, and the tree's embedder's own
 * warnings (a fitted embedder: nodes with too few chunks to fit, a stale fit), and the languages'
 * rules (texts missing in a declared language — errors with `--missing-texts error` —, texts per
 * language in a tree without languages — always an error). `--strict` makes
 * warnings exit 1 too. Then the routing thresholds as served: in the fitted space (an agent is loaded
 * and its fit awaited) — except above `LINT_FIT_MAX_CHUNKS` exploration chunks without `--fit`,
 * where the thresholds of the unfitted space are computed from lint's own embedding of the chunks.
 */
/**
 * Above this many exploration chunks `treeagent lint` does not fit the embedding space (the fit of
 * 12,000 chunks takes about a minute, and grows faster than the tree); `--fit` fits anyway.
 */
export const LINT_FIT_MAX_CHUNKS = 5000;

/**
 * Above `LINT_FIT_MAX_CHUNKS`, `treeagent lint` computes the thresholds only while their calibration
 * reads at most this many similarities per exploration chunk (shallow trees read a few hundred), so
 * lint stays linear in the tree; a deep tree (long chains of follow-ups) reads thousands per chunk,
 * growing with the square of the chain. `--thresholds` computes them anyway.
 */
export const LINT_CALIBRATION_MAX_READS_PER_CHUNK = 500;

export interface LintCommandOptions {
  config?: string;
  strict?: boolean;
  ambiguity?: string;
  fit?: boolean;
  thresholds?: boolean;
  /** `error`: a text missing in one of the tree's languages is an error (default `warning`). */
  missingTexts?: string;
}

export async function lintCommand(
  treePath: string,
  options: LintCommandOptions,
  out: Output,
): Promise<number> {
  if (options.missingTexts !== undefined && !['warning', 'error'].includes(options.missingTexts)) {
    out.error(
      `--missing-texts is "${options.missingTexts}": give "warning" (the default) or "error" (a text missing in one of the tree's languages fails lint).`,
    );
    return 2;
  }
  let loaded: Awaited<ReturnType<typeof loadTree>>;
  try {
    loaded = await loadTree(treePath, {
      ...(options.config ? { config: options.config } : {}),
      missingModels: 'notice',
    });
  } catch (error) {
    // The tree module has its own copy of @treeagent/core: check the code, not the class.
    if (!TreeAgentError.hasCode(error, 'TREE_VALIDATION')) throw error;
    const problems = (error as TreeValidationError).problems;
    for (const problem of problems) out.log(`error   ${formatProblem(problem)}`);
    out.log(`${problems.length} error(s)`);
    return 1;
  }
  // Listed, not refused: the tree is checked as it is, and runs once its models are configured.
  for (const line of missingModelLines(loaded.tree, loaded.agentOptions)) out.log(`info    ${line}`);
  const lintOptions = {
    ...(loaded.agentOptions.embedder ? { embedder: loaded.agentOptions.embedder } : {}),
    ...(options.ambiguity ? { ambiguity: Number(options.ambiguity) } : {}),
  };
  const exploring = loaded.tree.chunks.filter((chunk) => !chunk.forRag).length;
  if (exploring > LINT_FIT_MAX_CHUNKS && !options.fit && !options.thresholds) {
    const reads = calibrationReads(loaded.tree);
    if (reads > LINT_CALIBRATION_MAX_READS_PER_CHUNK * exploring) {
      // A large, deep tree: the warnings alone (linear); the thresholds would cost more than all of them.
      const warnings = await lintTree(loaded.tree, lintOptions);
      printWarnings(warnings, out, options);
      out.log(
        `info    thresholds not computed: calibrating this tree's thresholds reads ${reads} similarities (${Math.round(reads / exploring)} per exploration chunk; lint computes them up to ${LINT_CALIBRATION_MAX_READS_PER_CHUNK}), which grows with the square of its long chains of nodes. An agent serving the tree computes them when it loads it; lint --thresholds computes them here.`,
      );
      return summarize(warnings, 0, options, out);
    }
  }
  if (exploring > LINT_FIT_MAX_CHUNKS && !options.fit) {
    // A large tree: one embedding of the chunks serves every rule and the thresholds; no agent, no fit.
    const { warnings, thresholds } = await lintReport(loaded.tree, lintOptions);
    printWarnings(warnings, out, options);
    const embedderId = (
      loaded.agentOptions.embedder ?? defaultEmbedderFor(loaded.tree, loaded.agentOptions.language)
    ).id;
    out.log(
      `info    embedding space: unfitted (${embedderId}): lint does not fit trees of more than ${LINT_FIT_MAX_CHUNKS} exploration chunks (this one has ${exploring}), so the thresholds below are those of the unfitted space. An agent serving the tree fits it in the background (cached in .treeagent/fits); lint --fit fits it here and shows the thresholds in the fitted space.`,
    );
    printThresholds(thresholds, out);
    return summarize(warnings, 0, options, out);
  }
  const warnings = await lintTree(loaded.tree, lintOptions);
  printWarnings(warnings, out, options);
  // Thresholds as served: in the fitted space once the automatic fit (cached in .treeagent/fits) is in place.
  const agent = new TreeAgent({
    tree: loaded.tree,
    ...fitOptions(undefined, out, loaded.path, loaded.fitBase),
    ...loaded.agentOptions,
  });
  const space = await agent.whenFitted();
  out.log(`info    ${describeSpace(space)}`);
  const stale = staleShippedFit(loaded.path, space);
  if (stale) out.log(stale);
  printThresholds(await agent.thresholds(), out);
  return summarize(warnings, stale ? 1 : 0, options, out);
}

/**
 * Whether `treeagent lint` reports a finding as an error: one the tree will fail on at run time
 * (`severity: 'error'`, e.g. an llm node that shows nothing); texts given per language in a tree
 * without languages, always; a text missing in a declared language with `--missing-texts error`
 * (docs/multilingual-trees.md, "Lint").
 */
function isError(warning: LintWarning, options: LintCommandOptions): boolean {
  return (
    warning.severity === 'error' ||
    warning.code === 'undeclared-languages' ||
    (warning.code === 'missing-text' && options.missingTexts === 'error')
  );
}

/**
 * A warning when the fit shipped beside the tree (`treeagent fit`'s `<tree>.fit.json`) exists but the
 * agent fitted the tree without it: it was made for other chunks, another base or other settings.
 */
function staleShippedFit(treePath: string, space: SpaceStatus): string | null {
  const shipped = shippedFitFile(resolve(treePath));
  if (space.state !== 'fitted' || space.file === shipped || !existsSync(shipped)) return null;
  return `warning [stale-fit] ${shipped}: the fit shipped with the tree was made for other chunks, another base or other settings than the tree has now, so every start fits the tree again. Fix: run \`treeagent fit ${treePath}\` again and ship the new file.`;
}

function printWarnings(warnings: readonly LintWarning[], out: Output, options: LintCommandOptions): void {
  for (const warning of warnings)
    out.log(
      `${isError(warning, options) ? 'error  ' : 'warning'} [${warning.code}] node ${warning.nodeId}: ${warning.message} Fix: ${warning.fix}`,
    );
}

/** The count line, and the exit code: 1 on an error, or on a warning with --strict. */
function summarize(
  findings: readonly LintWarning[],
  otherWarnings: number,
  options: LintCommandOptions,
  out: Output,
): number {
  const errors = findings.filter((finding) => isError(finding, options)).length;
  const warnings = findings.length - errors + otherWarnings;
  out.log(`${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning(s)`);
  return errors || (warnings && options.strict) ? 1 : 0;
}

/** The automatic choices: thresholds calibrated at load, and those left at the library default. */
function printThresholds(thresholds: readonly LintThreshold[], out: Output): void {
  for (const threshold of thresholds)
    if (threshold.source === 'calibrated' || threshold.source === 'default')
      out.log(
        `info    node ${threshold.nodeId}${threshold.name ? ` ("${threshold.name}")` : ''}: similarityThreshold ${describeThreshold(threshold)}. Set similarityThreshold on the node (or the root's defaultSimilarityThreshold) to choose it yourself.`,
      );
}

/** `treeagent lint`: its help, arguments and options (the command table, `command-table.ts`). */
export const lintDefinition = defineCommand({
  name: 'lint',
  description:
    'Validation errors plus warnings: unreachable nodes, ambiguous sibling subtrees (with the chunk pairs), children without chunks, distant anchors, texts missing in a language the tree declares; with a fitted embedder, nodes with too few chunks to fit and a stale fit.',
  arguments: [{ name: '<tree>', description: 'tree file (.ts, .js or .json)' }],
  options: [
    { flags: '--config <file>', description: 'model configuration' },
    {
      flags: '--ambiguity <similarity>',
      description: 'chunk pairs of sibling subtrees at or above this similarity are ambiguous',
      default: '0.9',
    },
    { flags: '--strict', description: 'exit with code 1 on warnings too' },
    {
      flags: '--missing-texts <level>',
      description:
        'a text missing in one of the languages the tree declares is a "warning" or an "error" (exit 1)',
      default: 'warning',
    },
    {
      flags: '--fit',
      description: `fit the embedding space and show the thresholds in it even above ${LINT_FIT_MAX_CHUNKS} exploration chunks (slow on large trees)`,
    },
    {
      flags: '--thresholds',
      description: `compute the routing thresholds even when their calibration would read more than ${LINT_CALIBRATION_MAX_READS_PER_CHUNK} similarities per chunk (deep trees above ${LINT_FIT_MAX_CHUNKS} exploration chunks; slow)`,
    },
  ],
  run: ([tree], options, out) => lintCommand(tree, options, out),
});
