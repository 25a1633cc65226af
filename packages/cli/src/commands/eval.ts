import {
  evaluateRouting,
  type LabelledUtterance,
  type RoutingEvaluation,
  type Tree,
  TreeAgent,
} from '@treeagent/core';
import { openDataDirectory } from '../data-directory.js';
import { loadTree } from '../load-tree.js';
import { loadUtterances } from '../load-utterances.js';
import type { Output } from '../output.js';
import { progressBar } from '../progress.js';

export interface EvalOptions {
  config?: string;
  data?: string;
  json?: boolean;
  keep?: string;
  minAccuracy?: string;
}

/** `treeagent eval <tree> <utterances>`: routing evaluation with the real explore step. Exit 1 below --min-accuracy. */
export async function evalCommand(
  treePath: string,
  utterancesPath: string,
  options: EvalOptions,
  out: Output,
): Promise<number> {
  const loaded = await loadTree(treePath, options.config ? { config: options.config } : {});
  const utterances = loadUtterances(utterancesPath);
  const data = openDataDirectory(options.data);
  try {
    return await evaluate(
      new TreeAgent({
        tree: loaded.tree,
        embeddingCache: data.options.embeddingCache!,
        ...loaded.agentOptions,
      }),
      loaded.tree,
      utterances,
      options,
      out,
    );
  } finally {
    await data.close();
  }
}

async function evaluate(
  agent: TreeAgent,
  tree: Tree,
  utterances: LabelledUtterance[],
  options: EvalOptions,
  out: Output,
): Promise<number> {
  await agent.ready();
  const bar = progressBar('routing', utterances.length);
  const keep = options.keep === undefined ? 0.9 : Number(options.keep);
  const report = await evaluateRouting(tree, (text) => agent.route(text), utterances, {
    keep,
    onProgress: (done) => bar.update(done),
  });
  bar.stop();
  if (options.json) out.log(JSON.stringify(report, null, 2));
  else printReport(report, out);
  const minimum = options.minAccuracy === undefined ? undefined : Number(options.minAccuracy);
  if (minimum !== undefined && report.accuracy < minimum) {
    out.error(`accuracy ${report.accuracy.toFixed(3)} is below --min-accuracy ${minimum}`);
    return 1;
  }
  return 0;
}

function printReport(report: RoutingEvaluation, out: Output): void {
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  out.log(`utterances: ${report.total} (${report.inScope} in scope, ${report.outOfScope} out of scope)`);
  out.log(`accuracy (in scope): ${percent(report.accuracy)}`);
  if (report.outOfScope) out.log(`out-of-scope recall: ${percent(report.outOfScopeRecall)}`);
  const point = report.operatingPoint;
  out.log(
    `operating point: threshold ${point.threshold.toFixed(3)} keeps ${percent(point.keep)} of in-scope routes → in-scope right ${percent(point.inScopeAccuracy)}, out-of-scope recall ${percent(point.outOfScopeRecall)}`,
  );
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
  out.log('\nsuggested similarityThreshold per routing node:');
  for (const suggestion of report.thresholds) {
    out.log(
      `  node ${suggestion.nodeId}${suggestion.name ? ` (${suggestion.name})` : ''}: ${suggestion.current} → ${suggestion.suggested} (${percent(suggestion.accuracy)} right decisions on ${suggestion.shouldDescend + suggestion.shouldStop})`,
    );
  }
}
