import type { ChunkDefinition } from './chunk.js';
import type { ComponentDefinition, NodeDefinition } from './node-definition.js';
import type { TreeProblem } from './tree-problem.js';

/**
 * Replaces every `{ type: 'component', use, idBase }` node with the inline form: the component
 * node itself, then a clone of each of the component's nodes with id `idBase + localId`, the head
 * attached to the component node, links remapped to the clone's ids and explicit chunk ids
 * prefixed with the component node's id. Problems are collected, not thrown.
 */
export function expandComponents(
  nodes: readonly NodeDefinition[],
  problems: TreeProblem[],
): NodeDefinition[] {
  const out: NodeDefinition[] = [];
  for (const node of nodes) {
    if (typeof node !== 'object' || node === null || node.type !== 'component' || node.use === undefined) {
      out.push(node);
      continue;
    }
    const { use, idBase, ...instance } = node;
    out.push(instance);
    if (!Number.isInteger(idBase)) {
      problems.push({
        nodeId: node.id,
        message: `component "${use.name}" is used without an integer "idBase".`,
        fix: 'Give the component node an "idBase" so its nodes get stable ids idBase + localId, distinct from every other id in the tree.',
      });
      continue;
    }
    out.push(...cloneComponent(use, node.id, idBase as number, problems));
  }
  return out;
}

function cloneComponent(
  component: ComponentDefinition,
  instanceId: number,
  idBase: number,
  problems: TreeProblem[],
): NodeDefinition[] {
  const localIds = new Set(component.nodes.map((node) => node.id));
  const mapId = (localId: number) => idBase + localId;
  return component.nodes.map((node) => {
    const clone: Record<string, unknown> = { ...node, id: mapId(node.id) };
    if (node.type === 'head') clone.parent = instanceId;
    else if (node.parent !== undefined && node.parent !== null) clone.parent = mapId(node.parent);
    if (node.links) {
      const links: Record<string, number> = {};
      for (const [name, target] of Object.entries(node.links)) {
        if (!localIds.has(target)) {
          problems.push({
            nodeId: mapId(node.id),
            message: `link "${name}" of node ${node.id} in component "${component.name}" points to ${target}, which is not a node of the component.`,
            fix: 'Links inside a component may only reference nodes of the same component (by their local ids).',
          });
        }
        links[name] = mapId(target);
      }
      clone.links = links;
    }
    if (node.chunks) clone.chunks = node.chunks.map((chunk) => prefixChunkId(chunk, instanceId));
    return clone as unknown as NodeDefinition;
  });
}

function prefixChunkId(chunk: string | ChunkDefinition, instanceId: number): string | ChunkDefinition {
  if (typeof chunk === 'string' || chunk.id === undefined) return chunk;
  return { ...chunk, id: `${instanceId}/${chunk.id}` };
}
