import type { BasePromptOutput, BaseQueryOutput } from './callback-outputs.js';
import type {
  AfterCallback,
  BeforeCallback,
  FallbackCallback,
  PromptCallback,
  QueryCallback,
  RootNodeDefinition,
} from './node-definition.js';
import type { ToolSet } from './tool-definition.js';
import type { TreeNode } from './tree-node.js';

/**
 * Typed reads of a node's callbacks and properties that only some node types declare: the engine,
 * lint and the route preview read them through these instead of casting `node.definition`. Each
 * returns `undefined` when the node's type has no such property or the node does not set it.
 */

/** The `before` callback (empty, query, llm, emit and switch nodes). */
export function beforeOf(node: TreeNode): BeforeCallback | undefined {
  const definition = node.definition;
  return 'before' in definition ? definition.before : undefined;
}

/** The `after` callback (empty, query, llm and emit nodes). */
export function afterOf(node: TreeNode): AfterCallback<any, any> | undefined {
  const definition = node.definition;
  return 'after' in definition ? definition.after : undefined;
}

/** An agent's `fallback`. */
export function fallbackOf(node: TreeNode): FallbackCallback | undefined {
  const definition = node.definition;
  return definition.type === 'agent' ? definition.fallback : undefined;
}

/** The `prompt` callback or constant (llm and emit nodes). */
export function promptOf(node: TreeNode): PromptCallback | BasePromptOutput | undefined {
  const definition = node.definition;
  return 'prompt' in definition ? definition.prompt : undefined;
}

/** A query node's `query` callback or constant. */
export function queryOf(node: TreeNode): QueryCallback | BaseQueryOutput | undefined {
  const definition = node.definition;
  return definition.type === 'query' ? definition.query : undefined;
}

/** The tools and their step limit (llm and emit nodes). */
export function toolsOf(node: TreeNode): { tools: ToolSet | undefined; maxToolSteps: number | undefined } {
  const definition = node.definition;
  return 'tools' in definition
    ? { tools: definition.tools, maxToolSteps: definition.maxToolSteps }
    : { tools: undefined, maxToolSteps: undefined };
}

/** The root's definition (its `beforeRun`, `afterRun`, `smartExtendedMessage`, …), or `undefined` for another node. */
export function rootDefinitionOf(node: TreeNode): RootNodeDefinition | undefined {
  const definition = node.definition;
  return definition.type === 'root' ? definition : undefined;
}
