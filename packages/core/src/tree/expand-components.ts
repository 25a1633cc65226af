import type { ChunkDefinition } from './chunk.js';
import type { ComponentDefinition, NodeDefinition } from './node-definition.js';
import type { TreeProblem } from './tree-problem.js';

/**
 * Replaces every `{ type: 'component', use, idBase }` node with the inline form: the component
 * node itself, then a clone of each of the component's nodes with id `idBase + localId`, the head
 * attached to the component node, links remapped to the clone's ids and explicit chunk ids
 * prefixed with the component node's id. Problems are collected, not thrown.
 *
 * A component may itself `use` another component: its ids live in the outer component's local id
 * space (`innerIdBase + innerLocalId`), so once the outer one is placed at `outerIdBase` an inner
 * node gets `outerIdBase + innerIdBase + innerLocalId` (docs/reference.md, `component`). Local ids
 * that would collide inside a component are reported on the component, and a component that uses
 * itself (directly or not) is an error.
 */
export function expandComponents(
  nodes: readonly NodeDefinition[],
  problems: TreeProblem[],
): NodeDefinition[] {
  return expandList(nodes, problems, []);
}

function expandList(
  nodes: readonly NodeDefinition[],
  problems: TreeProblem[],
  using: readonly ComponentDefinition[],
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
    if (using.includes(use)) {
      problems.push({
        nodeId: node.id,
        message: `component "${use.name}" uses itself (${[...using, use].map((c) => `"${c.name}"`).join(' → ')}).`,
        fix: 'A component cannot contain a use of itself, directly or through another component: the expansion would never end.',
      });
      continue;
    }
    const clones = cloneComponent(use, node.id, idBase as number, problems);
    out.push(...expandList(clones, problems, [...using, use]));
  }
  return out;
}

/**
 * Every local id a component occupies: its own nodes' and, for each nested `use`, the nested
 * component's ids shifted by its `idBase`. Collisions inside the component are reported.
 */
function localIdSpace(
  component: ComponentDefinition,
  problems: TreeProblem[],
  reportOn: number,
  seen: readonly ComponentDefinition[] = [],
): Set<number> {
  const owners = new Map<number, string>();
  const claim = (id: number, owner: string) => {
    const previous = owners.get(id);
    if (previous !== undefined && previous !== owner) {
      problems.push({
        nodeId: reportOn,
        message: `in component "${component.name}", local id ${id} is used by ${previous} and by ${owner}.`,
        fix: 'Give the nested component an "idBase" that places its ids (idBase + its local ids) after every local id of the component that uses it.',
      });
    }
    owners.set(id, owner);
  };
  for (const node of component.nodes) claim(node.id, `node ${node.id}`);
  for (const node of component.nodes) {
    if (node.type !== 'component' || node.use === undefined || !Number.isInteger(node.idBase)) continue;
    if (seen.includes(node.use) || node.use === component) continue;
    const inner = localIdSpace(node.use, [], reportOn, [...seen, component]);
    for (const id of inner)
      claim((node.idBase as number) + id, `nested component "${node.use.name}" (node ${node.id})`);
  }
  return new Set(owners.keys());
}

function cloneComponent(
  component: ComponentDefinition,
  instanceId: number,
  idBase: number,
  problems: TreeProblem[],
): NodeDefinition[] {
  const localIds = localIdSpace(component, problems, instanceId);
  const mapId = (localId: number) => idBase + localId;
  return component.nodes.map((node) => {
    const clone: Record<string, unknown> = { ...node, id: mapId(node.id) };
    if (node.type === 'head') clone.parent = instanceId;
    else if (node.parent !== undefined && node.parent !== null) clone.parent = mapId(node.parent);
    if (node.type === 'component' && node.use !== undefined && Number.isInteger(node.idBase)) {
      clone.idBase = idBase + (node.idBase as number);
    }
    if (node.links) {
      const links: Record<string, number> = {};
      for (const [name, target] of Object.entries(node.links)) {
        if (!localIds.has(target)) {
          problems.push({
            nodeId: mapId(node.id),
            message: `link "${name}" of node ${node.id} in component "${component.name}" points to ${target}, which is not a node of the component.`,
            fix: "Links inside a component may only reference nodes of the same component (by their local ids; a nested component's node by its idBase + local id).",
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
