import type { Tree } from '@treeagent/core';
import type { LintWarning } from '@treeagent/core/evaluation';
import { DEFAULT_BASE_WEIGHT } from './base-weight.js';
import { chunkClasses, fitKey } from './fit-classes.js';
import type { Projection } from './projection.js';

/** What `lintFit` needs of a fitted embedder. */
export interface LintedFit {
  projection: Projection;
  baseWeight: number;
}

/**
 * Lint warnings about a fit for a tree: `stale-fit` when the tree changed since the fit (its
 * content hash differs), and `too-few-chunks-to-fit` for each node of the tree whose chunks are
 * fewer than the fit's `minChunksPerClass`: it is not a class of the fit, so the fitted space does
 * not separate it from the others; it falls back to the base space, kept in the fitted vector by
 * `baseWeight` (with `baseWeight: 0` there is nothing to fall back on, and the warning says so).
 */
export function lintFit(tree: Tree, fit: LintedFit): LintWarning[] {
  const { projection, baseWeight } = fit;
  const warnings: LintWarning[] = [];
  const key = fitKey(tree, projection.settings.classes);
  if (projection.fitKey !== key) {
    warnings.push({
      code: 'stale-fit',
      nodeId: tree.root.id,
      message: `the fitted embedder was fitted on other chunks (fit key ${String(projection.fitKey ?? 'none').slice(0, 12)}, the tree's now ${key.slice(0, 12)}): chunks added, changed or moved to another node since are not part of the fit. (Thresholds, names and messages do not count.)`,
      fix: 'Run `treeagent fit <tree>` again, or build the embedder with FittedEmbedder.forTree, which refits when the tree changes.',
    });
  }
  const { minChunksPerClass, classes } = projection.settings;
  const counts = new Map<number, number>();
  for (const nodeId of chunkClasses(tree, classes)) counts.set(nodeId, (counts.get(nodeId) ?? 0) + 1);
  for (const [nodeId, chunks] of counts) {
    if (chunks >= minChunksPerClass) continue;
    const node = tree.node(nodeId);
    const label = `${nodeId}${node.name ? ` ("${node.name}")` : ''}`;
    const fallback =
      baseWeight > 0
        ? `routing to it falls back to the base space, kept in the fitted vector at baseWeight ${baseWeight}`
        : 'with baseWeight 0 the fitted vector keeps no base space for it to fall back on, so it may be hard to reach';
    warnings.push({
      code: 'too-few-chunks-to-fit',
      nodeId,
      message: `node ${label} has ${chunks} chunk(s), fewer than the fit's minChunksPerClass (${minChunksPerClass}): it is not a class of the fit, so the fitted space does not set it apart; ${fallback}.`,
      fix: `Give it at least ${minChunksPerClass} chunks (different ways users ask for it)${baseWeight > 0 ? '' : `, or fit with a baseWeight above 0 (treeagent fit --base-weight ${DEFAULT_BASE_WEIGHT})`}.`,
    });
  }
  return warnings;
}
