import { TreeAgentError } from '../errors/tree-agent-error.js';

/** Named references from a node to other nodes: `links.confirm` is the id of the node linked as `confirm`. */
export type Links = Readonly<Record<string, number>>;

/**
 * Wraps a node's links so that reading an unknown name throws an error naming the node and
 * listing the links it has, instead of returning `undefined`.
 */
export function createLinks(nodeId: number, links: Record<string, number>): Links {
  const frozen = Object.freeze({ ...links });
  return new Proxy(frozen, {
    get(target, property) {
      if (typeof property === 'symbol') return Reflect.get(target, property);
      if (property === 'toJSON') return () => ({ ...target });
      if (property === 'toString') return () => `links of node ${nodeId}: ${JSON.stringify(target)}`;
      if (property === 'then') return undefined;
      if (Object.hasOwn(target, property)) return target[property];
      const known = Object.keys(target);
      throw new TreeAgentError(
        'UNKNOWN_LINK',
        `Node ${nodeId} has no link named "${property}". ${known.length ? `Its links are: ${known.join(', ')}.` : 'It has no links.'} Add it to the node's "links" in the tree definition.`,
        { nodeId, details: { link: property, known } },
      );
    },
  });
}
