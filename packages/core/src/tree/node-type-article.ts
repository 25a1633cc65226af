import type { NodeType } from '../protocol/constants.js';

/** A node type with its article, as messages say it: "an llm", "an agent", "an emit", "a query". */
export function aNode(type: NodeType): string {
  return `${type === 'llm' || /^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}
