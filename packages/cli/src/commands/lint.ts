import {
  formatProblem,
  lintTree,
  TreeAgent,
  TreeAgentError,
  type TreeValidationError,
} from '@treeagent/core';
import { loadTree } from '../load-tree.js';
import type { Output } from '../output.js';
import { describeSpace, fitOptions } from '../space.js';
import { describeThreshold } from '../thresholds.js';

/**
 * `treeagent lint <tree>`: validation errors (exit 1) and warnings: unreachable nodes, ambiguous
 * sibling subtrees, children without chunks, distant anchors, switch/empty nodes whose before
 * exploration passes through, agents without fallback, and the tree's embedder's own
 * warnings (a fitted embedder: nodes with too few chunks to fit, a stale fit). `--strict` makes
 * warnings exit 1 too.
 */
export async function lintCommand(
  treePath: string,
  options: { config?: string; strict?: boolean; ambiguity?: string },
  out: Output,
): Promise<number> {
  let loaded: Awaited<ReturnType<typeof loadTree>>;
  try {
    loaded = await loadTree(treePath, options.config ? { config: options.config } : {});
  } catch (error) {
    // The tree module has its own copy of @treeagent/core: check the code, not the class.
    if (!TreeAgentError.hasCode(error, 'TREE_VALIDATION')) throw error;
    const problems = (error as TreeValidationError).problems;
    for (const problem of problems) out.log(`error   ${formatProblem(problem)}`);
    out.log(`${problems.length} error(s)`);
    return 1;
  }
  const warnings = await lintTree(loaded.tree, {
    ...(loaded.agentOptions.embedder ? { embedder: loaded.agentOptions.embedder } : {}),
    ...(options.ambiguity ? { ambiguity: Number(options.ambiguity) } : {}),
  });
  for (const warning of warnings)
    out.log(`warning [${warning.code}] node ${warning.nodeId}: ${warning.message} Fix: ${warning.fix}`);
  // The automatic choices: thresholds calibrated at load, and those left at the library default.
  // Thresholds as served: in the fitted space once the automatic fit (cached in .treeagent/fits) is in place.
  const agent = new TreeAgent({ tree: loaded.tree, ...fitOptions(undefined, out), ...loaded.agentOptions });
  out.log(`info    ${describeSpace(await agent.whenFitted())}`);
  for (const threshold of await agent.thresholds())
    if (threshold.source === 'calibrated' || threshold.source === 'default')
      out.log(
        `info    node ${threshold.nodeId}${threshold.name ? ` ("${threshold.name}")` : ''}: similarityThreshold ${describeThreshold(threshold)}. Set similarityThreshold on the node (or the root's defaultSimilarityThreshold) to choose it yourself.`,
      );
  out.log(`0 errors, ${warnings.length} warning(s)`);
  return warnings.length && options.strict ? 1 : 0;
}
