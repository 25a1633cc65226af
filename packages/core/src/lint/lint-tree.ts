import { defaultEmbedderFor } from '../embedding/default-embedder.js';
import type { Embedder } from '../embedding/embedder.js';
import type { EmbeddingCache } from '../embedding/embedding-cache.js';
import type { Tree } from '../tree/tree.js';
import type { TreeNode } from '../tree/tree-node.js';
import { type ClosePairOptions, closeSiblingPairs } from './close-pairs.js';
import { languageWarnings } from './language-warnings.js';
import { type LintThreshold, lintThresholds } from './lint-thresholds.js';
import type { LintWarning } from './lint-warning.js';
import { embedRows, type SparseRows } from './sparse-rows.js';
import { structureWarnings } from './structure-warnings.js';

/** An embedder that has its own warnings about a tree (e.g. `FittedEmbedder` of `@treeagent/fit`). */
export interface LintableEmbedder extends Embedder {
  lint(tree: Tree): LintWarning[];
}

export interface LintOptions {
  /** The embedder the tree runs with (default `HashedEmbedder`). */
  embedder?: Embedder;
  /** Chunks are embedded through it when given (otherwise a `HashedEmbedder` embeds them sparse, uncached). */
  embeddingCache?: EmbeddingCache;
  /** Chunk pairs of sibling subtrees at or above this similarity are ambiguous. Default 0.9. */
  ambiguity?: number;
  /** How sibling chunk pairs are searched (exact up to 1000 chunks, hashed above). */
  closePairs?: ClosePairOptions;
  /** Depth from which a node whose failures climb to the agent gets a `distant-anchor` warning. Default 3. */
  anchorDepth?: number;
}

/**
 * Lints a valid tree: nodes exploration can never reach and no link targets; sibling subtrees whose
 * chunks are so similar that routing between them is ambiguous (with the chunk pairs); routing
 * parents whose children have no chunks; deep nodes whose failures climb all the way to the agent;
 * switch and empty nodes whose `before` exploration passes through; agents without `fallback`;
 * and the embedder's own warnings when it has a `lint(tree)` method (`LintableEmbedder`).
 */
export async function lintTree(tree: Tree, options: LintOptions = {}): Promise<LintWarning[]> {
  return (await lintWithVectors(tree, options, false)).warnings;
}

/** What `treeagent lint` prints: the warnings, and the routing thresholds an agent would run with. */
export interface LintReport {
  warnings: LintWarning[];
  /** Every routing node's threshold as `TreeAgent.thresholds()` gives it in the unfitted space (same embedder, default calibration, `fit: false`). */
  thresholds: LintThreshold[];
}

/**
 * `lintTree`'s warnings and the routing thresholds a `TreeAgent` with this embedder would calibrate
 * at load, both from one embedding of the chunks (no agent is loaded).
 */
export async function lintReport(tree: Tree, options: LintOptions = {}): Promise<LintReport> {
  const { warnings, thresholds } = await lintWithVectors(tree, options, true);
  return { warnings, thresholds: thresholds! };
}

async function lintWithVectors(
  tree: Tree,
  options: LintOptions,
  withThresholds: boolean,
): Promise<{ warnings: LintWarning[]; thresholds: LintThreshold[] | null }> {
  const embedder = options.embedder ?? defaultEmbedderFor(tree);
  const { rows } = await embedRows(
    embedder,
    tree.chunks.map((chunk) => chunk.text),
    options.embeddingCache,
  );
  const warnings: LintWarning[] = [];
  const linked = new Set<number>();
  for (const node of tree.nodes.values()) for (const target of Object.values(node.links)) linked.add(target);
  const label = (node: TreeNode) => `${node.id}${node.name ? ` ("${node.name}")` : ''}`;
  const reach = reachability(tree, linked);

  for (const node of tree.nodes.values()) {
    if (node.type === 'root' || node.type === 'agent') continue;
    const parent = tree.node(node.parentId!);
    const hasChunks = node.chunkEnd > node.chunkStart;
    if (!hasChunks && parent.children.length > 1 && !linked.has(node.id)) {
      warnings.push({
        code: 'child-without-chunks',
        nodeId: node.id,
        message: `node ${label(node)} has no chunks in its subtree, so exploration from node ${parent.id} never goes to it.`,
        fix: 'Give it chunks that describe when to go there, or reach it with a link (after → { nodeTarget: links.name }).',
      });
    }
    if (!reach.explorable.has(node.id) && !linked.has(node.id) && !reach.linkedAbove.has(node.id)) {
      warnings.push({
        code: 'unreachable-node',
        nodeId: node.id,
        message: `node ${label(node)} cannot be reached: exploration cannot descend to it and no link points to it or to a node above it.`,
        fix: 'Add chunks on the way to it, or a link to it from the node that should lead there (callbacks that target raw ids are not seen by lint).',
      });
    }
    const anchorDepth = options.anchorDepth ?? 3;
    if (node.depth >= anchorDepth && node.children.length > 0 && node.anchorId === node.agentId) {
      warnings.push({
        code: 'distant-anchor',
        nodeId: node.id,
        message: `failures below node ${label(node)} (depth ${node.depth}) climb back to the agent ${node.agentId}: there is no closer anchor.`,
        fix: 'Set isAnchor on the ancestor where a failed attempt should continue (for example the entry of this part of the conversation).',
      });
    }
  }
  // Appended one by one: a spread of more than about 100,000 warnings overflows the call stack.
  const append = (more: readonly LintWarning[]) => {
    for (const warning of more) warnings.push(warning);
  };
  append(structureWarnings(tree, label));
  append(languageWarnings(tree, label));
  append(ambiguousSiblings(tree, rows, options, label));
  if (options.embedder && typeof (options.embedder as Partial<LintableEmbedder>).lint === 'function')
    append((options.embedder as LintableEmbedder).lint(tree));
  return { warnings, thresholds: withThresholds ? await lintThresholds(tree, rows, embedder) : null };
}

/**
 * In one walk down from the agents (parents before children, so each node is looked at once instead
 * of walking up from every node):
 * - `explorable`: exploration reaches the node: every step from its agent down leads into a subtree
 *   with chunks;
 * - `linkedAbove`: a linked node on the way up (the node itself included) can be executed, and below
 *   it exploration only needs chunks down to the node.
 */
function reachability(tree: Tree, linked: ReadonlySet<number>) {
  const explorable = new Set<number>();
  const linkedAbove = new Set<number>();
  const pending: TreeNode[] = [...tree.nodes.values()].filter((node) => node.type === 'agent');
  for (const agent of pending) explorable.add(agent.id);
  while (pending.length) {
    const parent = pending.pop()!;
    const fromAgent = parent.type === 'agent';
    for (const id of parent.children) {
      const node = tree.node(id);
      const hasChunks = node.chunkEnd > node.chunkStart;
      if (hasChunks && explorable.has(parent.id)) explorable.add(id);
      if (linked.has(id) || (hasChunks && !fromAgent && linkedAbove.has(parent.id))) linkedAbove.add(id);
      pending.push(node);
    }
  }
  return { explorable, linkedAbove };
}

function ambiguousSiblings(
  tree: Tree,
  rows: SparseRows,
  options: LintOptions,
  label: (node: TreeNode) => string,
): LintWarning[] {
  const limit = options.ambiguity ?? 0.9;
  const warnings: LintWarning[] = [];
  for (const group of closeSiblingPairs(tree, rows, limit, options.closePairs)) {
    const { parent, left, right, pairs } = group;
    const shown = pairs
      .slice(0, 3)
      .map(
        (pair) =>
          `"${tree.chunks[pair.left]!.text}" ~ "${tree.chunks[pair.right]!.text}" (${pair.similarity.toFixed(2)})`,
      )
      .join('; ');
    warnings.push({
      code: 'ambiguous-siblings',
      nodeId: parent.id,
      message: `under node ${label(parent)}, the subtrees of ${label(left)} and ${label(right)} have ${pairs.length} chunk pair(s) with similarity ≥ ${limit}: ${shown}. Routing between them is ambiguous.`,
      fix: 'Reword or remove one chunk of each pair so each subtree says what only it handles.',
    });
  }
  return warnings;
}
