import type { ThresholdSource } from '../protocol/events.js';
import type { Tree } from '../tree/tree.js';
import type { ThresholdCalibration } from './calibrate-thresholds.js';

/** A routing node's threshold as exploration uses it (`TreeAgent.thresholds`). */
export interface RoutingThreshold {
  nodeId: number;
  name: string | undefined;
  threshold: number;
  source: ThresholdSource;
  /** For a calibrated threshold: what it was computed from. */
  calibration?: ThresholdCalibration;
}

/**
 * The threshold of every routing node of `tree` (a node other than the root with children that hold
 * chunks), with where it comes from and, for `calibrations`' nodes, what it was computed from. The
 * agent (`TreeAgent.thresholds`) and lint (`lintThresholds`) list them the same way.
 */
export function routingThresholds(
  tree: Tree,
  calibrations: readonly ThresholdCalibration[],
): RoutingThreshold[] {
  const calibrated = new Map(calibrations.map((calibration) => [calibration.nodeId, calibration]));
  return [...tree.nodes.values()]
    .filter((node) => node.type !== 'root' && node.children.length > 0 && node.chunkEnd > node.ownChunkEnd)
    .map((node) => ({
      nodeId: node.id,
      name: node.name,
      threshold: node.similarityThreshold,
      source: node.thresholdSource,
      ...(calibrated.has(node.id) ? { calibration: calibrated.get(node.id)! } : {}),
    }));
}
