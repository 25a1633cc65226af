import type { TreeDocument } from './tree-document-types.js';

/** Key order of the document: what it is, then where its code is, then its content. */
const DOCUMENT_KEYS = ['$schema', 'format', 'version', 'name', 'languages', 'module', 'components', 'nodes'];

/** Key order of a node: identity and place first, then routing, flags, content and code. */
const NODE_KEYS = [
  'id',
  'parent',
  'type',
  'name',
  'description',
  'isPrimary',
  'use',
  'idBase',
  'similarityThreshold',
  'defaultSimilarityThreshold',
  'isBlocking',
  'isAnchor',
  'isMute',
  'smartExtendedMessage',
  'exploreForRagChunks',
  'conversationGoal',
  'topics',
  'model',
  'chunks',
  'emit',
  'warning',
  'prompt',
  'responseFormat',
  'query',
  'links',
  'callbacks',
];

const CHUNK_KEYS = ['id', 'text', 'language', 'forRag', 'extra'];

/**
 * The text of a tree document with a stable layout that diffs well in git: the same document gives
 * the same bytes whatever order its keys were set in. Known keys in a fixed order (unknown ones after
 * them, sorted), two-space indentation, one chunk per line, a final newline.
 */
export function formatTreeDocument(document: TreeDocument): string {
  const ordered = orderKeys(document as unknown as Record<string, unknown>, DOCUMENT_KEYS);
  if (ordered.components && typeof ordered.components === 'object') {
    const components: Record<string, unknown> = {};
    for (const name of Object.keys(ordered.components).sort()) {
      const component = (ordered.components as Record<string, { nodes?: unknown[] }>)[name]!;
      components[name] = { ...component, nodes: (component.nodes ?? []).map(orderNode) };
    }
    ordered.components = components;
  }
  if (Array.isArray(ordered.nodes)) ordered.nodes = ordered.nodes.map(orderNode);
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

function orderNode(node: unknown): unknown {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
  const ordered = orderKeys(node as Record<string, unknown>, NODE_KEYS);
  if (Array.isArray(ordered.chunks))
    ordered.chunks = ordered.chunks.map((chunk) =>
      chunk && typeof chunk === 'object' ? orderChunk(chunk) : chunk,
    );
  for (const [key, value] of Object.entries(ordered)) {
    // A response schema's property order is what the model is asked for: kept as written.
    if (key !== 'chunks' && key !== 'responseFormat') ordered[key] = sortDeep(value);
  }
  return ordered;
}

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  // `type` and `id` first (a message's type before its content), the rest alphabetically.
  const keys = Object.keys(value).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  for (const key of keys) out[key] = sortDeep((value as Record<string, unknown>)[key]);
  return out;
}

function rank(key: string): number {
  return key === 'type' ? 0 : key === 'id' ? 1 : 2;
}

function orderChunk(chunk: object): Record<string, unknown> {
  const ordered = orderKeys(chunk as Record<string, unknown>, CHUNK_KEYS);
  if (ordered.extra !== undefined) ordered.extra = sortDeep(ordered.extra);
  return ordered;
}

function orderKeys(value: Record<string, unknown>, known: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of known) if (value[key] !== undefined) out[key] = value[key];
  for (const key of Object.keys(value).sort())
    if (!known.includes(key) && value[key] !== undefined) out[key] = value[key];
  return out;
}
