import { type ThresholdSource, TreeAgent } from '@treeagent/core';
import {
  evaluateRouting,
  type LabelledUtterance,
  type RoutingEvaluation,
  type RoutingOutcome,
} from '@treeagent/core/evaluation';
import { openDataDirectory } from '../data-directory.js';
import { type LoadedTree, loadTree } from '../load-tree.js';
import { loadUtterances } from '../load-utterances.js';
import type { Output } from '../output.js';
import { progressBar } from '../progress.js';
import { describeSpace, fitOptions } from '../space.js';
import { defineCommand } from './command-definition.js';

export interface EvalOptions {
  config?: string;
  data?: string;
  json?: boolean;
  keep?: string;
  minAccuracy?: string;
  minOosRecall?: string;
}

/** `treeagent eval <tree> <utterances>`: routing evaluation, routed as `send` would. Exit 1 below --min-accuracy or --min-oos-recall. */
export async function evalCommand(
  treePath: string,
  utterancesPath: string,
  options: EvalOptions,
  out: Output,
): Promise<number> {
  const loaded = await loadTree(treePath, {
    ...(options.config ? { config: options.config } : {}),
    missingModels: 'notice',
  });
  const utterances = loadUtterances(utterancesPath);
  const keep = options.keep === undefined ? 0.9 : Number(options.keep);
  const { report, space } = await measureRouting(
    loaded,
    utterances,
    {
      keep,
      ...(options.data ? { data: options.data } : {}),
      describeSpace: !options.json,
    },
    out,
  );
  if (options.json) out.log(JSON.stringify({ ...report, space }, null, 2));
  else printReport(report, out);
  const minimum = options.minAccuracy === undefined ? undefined : Number(options.minAccuracy);
  if (minimum !== undefined && report.accuracy < minimum) {
    out.error(`accuracy ${report.accuracy.toFixed(3)} is below --min-accuracy ${minimum}`);
    return 1;
  }
  const minimumRecall = options.minOosRecall === undefined ? undefined : Number(options.minOosRecall);
  if (minimumRecall !== undefined && report.outOfScopeRecall < minimumRecall) {
    out.error(
      `out-of-scope recall ${report.outOfScopeRecall.toFixed(3)} is below --min-oos-recall ${minimumRecall}`,
    );
    return 1;
  }
  return 0;
}

/**
 * Routes labelled utterances through a loaded tree as a first message would, on the data
 * directory's embedding cache and fits: what `treeagent eval` reports and the publish gate checks.
 */
export async function measureRouting(
  loaded: LoadedTree,
  utterances: LabelledUtterance[],
  options: { data?: string; keep?: number; describeSpace?: boolean },
  out: Output,
): Promise<{ report: RoutingEvaluation; space: Awaited<ReturnType<TreeAgent['whenFitted']>> }> {
  const data = openDataDirectory(options.data);
  try {
    const agent = new TreeAgent({
      tree: loaded.tree,
      embeddingCache: data.options.embeddingCache!,
      ...fitOptions(options.data, out, loaded.path, loaded.fitBase),
      ...loaded.agentOptions,
    });
    // What serving gives once the background fit (if any) is in place.
    const space = await agent.whenFitted();
    if (options.describeSpace) out.log(describeSpace(space));
    const bar = progressBar('routing', utterances.length * 4);
    const report = await evaluateRouting(loaded.tree, agent, utterances, {
      keep: options.keep ?? 0.9,
      onProgress: (done) => bar.update(done),
    });
    bar.stop();
    return { report, space };
  } finally {
    await data.close();
  }
}

function printReport(report: RoutingEvaluation, out: Output): void {
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const figures = (outcome: RoutingOutcome) =>
    `in-scope right ${percent(outcome.inScopeAccuracy)} (answered at all ${percent(outcome.inScopeKept)})${report.outOfScope ? `, out-of-scope declined ${percent(outcome.outOfScopeRecall)}` : ''}`;
  out.log(`utterances: ${report.total} (${report.inScope} in scope, ${report.outOfScope} out of scope)`);
  const sources = [...new Set(report.thresholds.map((suggestion) => suggestion.currentSource))];
  out.log(
    `with the tree's thresholds (${sources.map(describeSource).join(', ') || 'no routing node'}): ${figures({ inScopeAccuracy: report.accuracy, inScopeKept: report.inScopeKept, outOfScopeRecall: report.outOfScopeRecall })}`,
  );
  out.log(
    '  "in-scope right": the turn answers from the labelled node (not declined to the fallback, not another node); "out-of-scope declined": it reaches none of the labelled nodes.',
  );
  const point = report.operatingPoint;
  if (point === null) {
    out.log(
      `\noperating point: none suggested (only ${report.inScope} in-scope utterance(s): too few to choose a threshold from; see the warnings below)`,
    );
  } else {
    out.log(
      `\noperating point: one threshold for every routing node, ${point.threshold.toFixed(3)} (set defaultSimilarityThreshold: ${point.threshold.toFixed(3)} on the root), chosen to keep ${percent(point.keep)} of the in-scope utterances routed → ${figures(point)}`,
    );
    out.log(
      '  routed again with it; on new utterances expect about the same share kept. In-scope right is lower than kept: some kept utterances reach another node.',
    );
  }
  const weakest = [...report.perNode].sort((a, b) => a.f1 - b.f1).slice(0, 10);
  out.log('\nweakest nodes (precision / recall / support):');
  for (const score of weakest)
    out.log(
      `  ${score.name.padEnd(32)} ${percent(score.precision).padStart(7)} ${percent(score.recall).padStart(7)} ${String(score.support).padStart(5)}`,
    );
  if (report.confusions.length) {
    out.log('\nmost confused (expected → reached):');
    for (const confusion of report.confusions.slice(0, 10))
      out.log(`  ${confusion.count}× ${confusion.expected} → ${confusion.predicted}`);
  }
  out.log(
    report.perNodeKeep === null
      ? '\nsuggested similarityThreshold per routing node: none (too few utterances through each node)'
      : `\nsuggested similarityThreshold per routing node (each keeps ${percent(report.perNodeKeep)} of the utterances that should descend through it, so that together they keep ${percent(report.keep)} of the in-scope utterances; set it on the node):`,
  );
  for (const suggestion of report.thresholds) {
    const name = `node ${suggestion.nodeId}${suggestion.name ? ` (${suggestion.name})` : ''}`;
    const now = `${suggestion.current} (${describeSource(suggestion.currentSource)})`;
    out.log(
      suggestion.suggested === null
        ? `  ${name}: ${now}, no suggestion: ${suggestion.reason}`
        : `  ${name}: ${now} → ${suggestion.suggested} (keeps ${percent(suggestion.descendKept)} of ${suggestion.shouldDescend} that should descend, stops ${percent(suggestion.stopRecall)} of ${suggestion.shouldStop} that should not)`,
    );
  }
  if (report.suggestedOutcome) out.log(`  applied together → ${figures(report.suggestedOutcome)}`);
  for (const warning of report.warnings) out.log(`\nwarning: ${warning}`);
}

function describeSource(source: ThresholdSource): string {
  switch (source) {
    case 'calibrated':
      return 'calibrated at load';
    case 'node':
      return 'set on the node';
    case 'root-default':
      return "root's defaultSimilarityThreshold";
    default:
      return 'library default';
  }
}

/** `treeagent eval`: its help, arguments and options (the command table, `command-table.ts`). */
export const evalDefinition = defineCommand({
  name: 'eval',
  description:
    'Routing evaluation: route each labelled utterance as a first message would (the explore step and its climbs) and report in-scope accuracy, out-of-scope recall, per-node scores, confusions, an operating-point threshold and suggested thresholds per node.',
  arguments: [
    { name: '<tree>', description: 'tree file (.ts, .js or .json)' },
    {
      name: '<utterances>',
      description:
        'labelled utterances: .json [[text, expected], …], .jsonl, .tsv or .csv; expected is a node name or "none"',
    },
  ],
  options: [
    {
      flags: '--config <file>',
      description: 'model configuration (default: treeagent.config.json next to the tree)',
    },
    {
      flags: '--keep <share>',
      description: 'share of in-scope utterances the operating point keeps',
      default: '0.9',
    },
    { flags: '--data <directory>', description: 'data directory (embedding cache)', default: '.treeagent' },
    {
      flags: '--min-accuracy <value>',
      description: 'exit with code 1 when the in-scope accuracy is below this value',
    },
    {
      flags: '--min-oos-recall <value>',
      description: 'exit with code 1 when the out-of-scope recall is below this value',
    },
    { flags: '--json', description: 'print the whole report as JSON' },
  ],
  run: ([tree, utterances], options, out) => evalCommand(tree, utterances, options, out),
});
