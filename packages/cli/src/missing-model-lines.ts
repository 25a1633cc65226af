import type { Tree, TreeAgentOptions } from '@treeagent/core';
import { type ModelNeed, modelNeeds } from '@treeagent/core/evaluation';
import { cliModelHelp } from './model-help.js';

/** The model needs of `tree` that the loaded agent options do not configure. */
export function missingModelNeeds(tree: Tree, agentOptions: Omit<TreeAgentOptions, 'tree'>): ModelNeed[] {
  const models = (agentOptions.models ?? {}) as Record<string, unknown>;
  return modelNeeds(tree).filter((need) => !models[need.model]);
}

/**
 * One line per node that needs a model that is not configured ("needs a model at run time"), then
 * how to configure each missing model: what `lint` and `dev` print for a tree with llm nodes and no model.
 */
export function missingModelLines(tree: Tree, agentOptions: Omit<TreeAgentOptions, 'tree'>): string[] {
  const missing = missingModelNeeds(tree, agentOptions);
  const lines = missing.map((need) => {
    const name = tree.node(need.nodeId).name;
    return `node ${need.nodeId}${name ? ` ("${name}")` : ''}: ${need.what} needs a model at run time: model "${need.model}" is not configured, so it answers with a "no language model configured" notice.`;
  });
  for (const model of new Set(missing.map((need) => need.model)))
    lines.push(`model "${model}": ${cliModelHelp(model)}`);
  return lines;
}
