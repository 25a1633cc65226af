/**
 * What changed between two tree documents (JSON text), one line per change: the tree's own fields,
 * then nodes added, removed and changed (with the fields that changed), by node id. Empty when the
 * documents are the same tree. Used as a version's `diff` from its parent, and by the editor's diff.
 */
export function versionDiff(before: string, after: string): string[] {
  const previous = parse(before);
  const next = parse(after);
  const lines: string[] = [];
  for (const field of unionKeys(previous, next))
    if (field !== 'nodes' && !same(previous[field], next[field])) lines.push(`tree: ${field} changed`);
  const nodesBefore = nodesById(previous);
  const nodesAfter = nodesById(next);
  for (const [id, node] of nodesAfter) {
    const old = nodesBefore.get(id);
    if (!old) {
      lines.push(`node ${id}${nameOf(node)}: added`);
      continue;
    }
    const fields = unionKeys(old, node).filter((field) => !same(old[field], node[field]));
    if (fields.length) lines.push(`node ${id}${nameOf(node)}: ${fields.join(', ')} changed`);
  }
  for (const [id, node] of nodesBefore)
    if (!nodesAfter.has(id)) lines.push(`node ${id}${nameOf(node)}: removed`);
  return lines;
}

type Json = Record<string, unknown>;

function parse(text: string): Json {
  const value = JSON.parse(text) as unknown;
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

function nodesById(document: Json): Map<string, Json> {
  const nodes = Array.isArray(document.nodes) ? (document.nodes as Json[]) : [];
  return new Map(nodes.map((node, index) => [String(node.id ?? `#${index}`), node]));
}

function nameOf(node: Json): string {
  return typeof node.name === 'string' ? ` (${node.name})` : '';
}

function unionKeys(a: Json, b: Json): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])];
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
