import { type RoutingThreshold, type Tree, TreeAgent, type TreeNode } from '@treeagent/core';
import { loadTree } from '../load-tree.js';
import { missingModelNeeds } from '../missing-model-lines.js';
import { cliModelHelp } from '../model-help.js';
import type { Output } from '../output.js';
import { describeSpace, fitOptions } from '../space.js';
import { describeThreshold, thresholdsById } from '../thresholds.js';
import { defineCommand } from './command-definition.js';

/** `treeagent inspect <tree>`: the effective tree (components flattened) with ids, types, thresholds (as the agent runs them, with where they come from) and chunks. */
export async function inspectCommand(
  treePath: string,
  options: { config?: string; json?: boolean },
  out: Output,
): Promise<number> {
  const loaded = await loadTree(treePath, {
    ...(options.config ? { config: options.config } : {}),
    missingModels: 'notice',
  });
  const { tree } = loaded;
  // The thresholds as the agent runs them: calibrated ones need the chunks embedded.
  const agent = new TreeAgent({
    tree,
    ...fitOptions(undefined, out, loaded.path, loaded.fitBase),
    ...loaded.agentOptions,
  });
  const space = await agent.whenFitted();
  const thresholds = await thresholdsById(agent);
  const needsModel = new Map(
    missingModelNeeds(tree, loaded.agentOptions).map((need) => [need.nodeId, need.model]),
  );
  if (options.json) {
    out.log(JSON.stringify({ ...describeTree(tree, thresholds, needsModel), space }, null, 2));
    return 0;
  }
  const all = [...tree.nodes.values()].reduce((sum, node) => sum + node.chunks.length, 0);
  const retrievalOnly = all - tree.chunks.length;
  out.log(
    `${tree.name}: ${tree.nodes.size} nodes, ${all} chunks${retrievalOnly ? ` (${retrievalOnly} forRag, retrieval only)` : ''}, content hash ${tree.contentHash}`,
  );
  const visit = (node: TreeNode, prefix: string, last: boolean, top: boolean) => {
    out.log(`${top ? '' : `${prefix}${last ? '└─ ' : '├─ '}`}${label(tree, node, thresholds, needsModel)}`);
    const childPrefix = top ? '' : `${prefix}${last ? '   ' : '│  '}`;
    node.children.forEach((id, index) => {
      visit(tree.node(id), childPrefix, index === node.children.length - 1, false);
    });
  };
  visit(tree.root, '', true, true);
  out.log(describeSpace(space));
  for (const model of new Set(needsModel.values())) out.log(`model "${model}": ${cliModelHelp(model)}`);
  return 0;
}

function label(
  tree: Tree,
  node: TreeNode,
  thresholds: Map<number, RoutingThreshold>,
  needsModel: Map<number, string>,
): string {
  const flags = [
    needsModel.has(node.id) ? `needs model "${needsModel.get(node.id)}" at run time` : '',
    node.definition.type === 'agent' && node.definition.isPrimary ? 'primary' : '',
    node.isBlocking ? 'blocking' : '',
    node.isAnchor ? 'anchor' : '',
    node.isMute ? 'mute' : '',
  ].filter(Boolean);
  const scope = node.scopeId !== tree.root.id ? ` [component ${node.scopeId}]` : '';
  const rag = node.chunks.filter((chunk) => chunk.forRag).length;
  const chunks = node.chunks.length ? `, ${node.chunks.length} chunks${rag ? ` (${rag} forRag)` : ''}` : '';
  const routing = thresholds.get(node.id);
  const threshold = routing ? `, threshold ${describeThreshold(routing)}` : '';
  return `${node.id} ${node.type}${node.name ? ` "${node.name}"` : ''}${flags.length ? ` (${flags.join(', ')})` : ''}${threshold}${chunks}${scope}`;
}

function describeTree(
  tree: Tree,
  thresholds: Map<number, RoutingThreshold>,
  needsModel: Map<number, string>,
) {
  return {
    name: tree.name,
    contentHash: tree.contentHash,
    nodes: [...tree.nodes.values()].map((node) => ({
      id: node.id,
      type: node.type,
      name: node.name ?? null,
      parent: node.parentId,
      children: node.children,
      similarityThreshold: thresholds.get(node.id)?.threshold ?? node.similarityThreshold,
      thresholdSource: thresholds.get(node.id)?.source ?? node.thresholdSource,
      ...(thresholds.get(node.id)?.calibration ? { calibration: thresholds.get(node.id)!.calibration } : {}),
      isBlocking: node.isBlocking,
      isAnchor: node.isAnchor,
      isMute: node.isMute,
      /** The model this node needs at run time and the configuration lacks; null: none missing. */
      missingModel: needsModel.get(node.id) ?? null,
      component: node.scopeId === tree.root.id ? null : node.scopeId,
      chunks: node.chunks.length,
      forRagChunks: node.chunks.filter((chunk) => chunk.forRag).length,
    })),
  };
}

/** `treeagent inspect`: its help, arguments and options (the command table, `command-table.ts`). */
export const inspectDefinition = defineCommand({
  name: 'inspect',
  description: 'Show the effective tree (components flattened) with ids, types, thresholds and chunk counts.',
  arguments: [{ name: '<tree>', description: 'tree file (.ts, .js or .json)' }],
  options: [
    { flags: '--config <file>', description: 'model configuration' },
    { flags: '--json', description: 'print as JSON' },
  ],
  run: ([tree], options, out) => inspectCommand(tree, options, out),
});
