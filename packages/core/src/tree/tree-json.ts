import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { NodeDefinition, TreeDefinition } from './node-definition.js';
import { TreeValidationError } from './tree-validation-error.js';

/** A tree definition without callbacks: what can be stored as JSON. */
export interface TreeJSON {
  name?: string;
  languages?: string[];
  nodes: Record<string, unknown>[];
}

/**
 * Callbacks to attach to a JSON tree, by node id: `{ 12: { after: (self, ctx, special, links) => … } }`.
 * Tools are attached the same way: `{ 42: { tools: { orderStatus } } }`.
 */
export type CallbackMap = Record<number, Record<string, unknown>>;

/**
 * Everything but the callbacks of a tree definition, as plain JSON. Components used with `use`
 * must be expanded first (a `Tree`'s `definition` already is). Constant callback outputs are kept.
 */
export function definitionToJSON(definition: TreeDefinition): TreeJSON {
  return {
    ...(definition.name ? { name: definition.name } : {}),
    ...(definition.languages ? { languages: [...definition.languages] } : {}),
    nodes: definition.nodes.map((node) => {
      const plain: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(node)) {
        // Tools are code (an `execute` and maybe a zod schema): attach them with the callback map.
        if (typeof value === 'function' || value === undefined || key === 'use' || key === 'tools') continue;
        plain[key] = JSON.parse(JSON.stringify(value));
      }
      return plain;
    }),
  };
}

/**
 * Rebuilds a tree definition from JSON, attaching callbacks by node id. Pass the result to `defineTree`.
 *
 * @example
 * const tree = defineTree(definitionFromJSON(JSON.parse(text), { 12: { after: () => ({ nodeTarget: 3 }) } }));
 */
export function definitionFromJSON(json: TreeJSON, callbacks: CallbackMap = {}): TreeDefinition {
  const given = (json as { nodes?: unknown } | null)?.nodes;
  if (
    !Array.isArray(given) ||
    given.some((node) => typeof node !== 'object' || node === null || Array.isArray(node))
  ) {
    throw new TreeValidationError([
      {
        message: 'the JSON tree has no "nodes" array of node objects.',
        fix: 'Write the tree as { "nodes": [{ "id": 1, "type": "root" }, …] }.',
      },
    ]);
  }
  const ids = new Set(json.nodes.map((node) => node.id));
  const unknown = Object.keys(callbacks).filter((id) => !ids.has(Number(id)));
  if (unknown.length) {
    throw new TreeAgentError(
      'TREE_VALIDATION',
      `Callbacks are given for node ids that are not in the tree: ${unknown.join(', ')}. Check the ids of the callback map.`,
      { details: { unknown } },
    );
  }
  const nodes = json.nodes.map(
    (node) => ({ ...node, ...(callbacks[node.id as number] ?? {}) }) as unknown as NodeDefinition,
  );
  return {
    ...(json.name ? { name: json.name } : {}),
    ...(json.languages ? { languages: json.languages } : {}),
    nodes,
  };
}
