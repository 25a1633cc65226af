import type { RoutingThreshold, TreeAgent } from '@treeagent/core';

/** `0.25 (calibrated: keeps 95% of 128 sampled chunks above it, nearest-chunk median 0.62)`, `0.3 (set on the node)`. */
export function describeThreshold(threshold: RoutingThreshold): string {
  const calibration = threshold.calibration;
  switch (threshold.source) {
    case 'calibrated':
      return `${threshold.threshold} (calibrated at load${calibration!.quantile < threshold.threshold ? `: the library default as a floor, the chunks alone give ${calibration!.quantile}` : ''}: ${Math.round(calibration!.keep * 100)}% of ${calibration!.samples} sampled chunks have their nearest other chunk above it; median ${calibration!.withinMedian}${calibration!.betweenMedian === null ? '' : `, nearest chunk of another child median ${calibration!.betweenMedian}`})`;
    case 'node':
      return `${threshold.threshold} (set on the node)`;
    case 'root-default':
      return `${threshold.threshold} (the root's defaultSimilarityThreshold)`;
    default:
      return `${threshold.threshold} (library default: too few chunks below it to calibrate)`;
  }
}

/** The routing nodes' thresholds as the agent runs them, by node id (loads the agent). */
export async function thresholdsById(agent: TreeAgent): Promise<Map<number, RoutingThreshold>> {
  return new Map((await agent.thresholds()).map((threshold) => [threshold.nodeId, threshold]));
}
