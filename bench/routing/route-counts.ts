import type { LabelledUtterance } from '../../packages/core/src/evaluation.js';
import type { TreeAgent } from '../../packages/core/src/index.js';

/** How an agent routed a labelled set (`none`: out of scope), counted once for every benchmark. */
export interface RouteCounts {
  inScope: number;
  /** In-scope messages routed to their intent. */
  right: number;
  /** In-scope messages routed anywhere but the fallback. */
  answered: number;
  outOfScope: number;
  /** Out-of-scope messages the agent declined. */
  declined: number;
  /** Messages routed in `secondSpace` (a cascade's second space), when one is named. */
  escalated: number;
}

/** Routes every message of `test` with `agent.route` and counts the outcomes. */
export async function routeCounts(
  agent: TreeAgent,
  test: readonly LabelledUtterance[],
  secondSpace?: string,
): Promise<RouteCounts> {
  const counts: RouteCounts = { inScope: 0, right: 0, answered: 0, outOfScope: 0, declined: 0, escalated: 0 };
  for (const [text, expected] of test) {
    const routed = await agent.route(text);
    if (secondSpace && routed.fittedSpace === secondSpace) counts.escalated++;
    const predicted = routed.noMatch ? 'none' : routed.node.name;
    if (expected === 'none') {
      counts.outOfScope++;
      if (predicted === 'none') counts.declined++;
    } else {
      counts.inScope++;
      if (predicted !== 'none') counts.answered++;
      if (predicted === expected) counts.right++;
    }
  }
  return counts;
}
