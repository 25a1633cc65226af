import { createHash } from 'node:crypto';
import type { Chunk } from './chunk.js';
import { expandComponents } from './expand-components.js';
import { effectiveParent, indexComponents } from './flatten-components.js';
import { LANGUAGE_CODE_PATTERN } from './localized-text.js';
import type { NodeDefinition, Self, TreeDefinition } from './node-definition.js';
import { Tree } from './tree.js';
import { definitionToJSON } from './tree-json.js';
import type { EffectiveNodeType, SelfScope, TreeNode } from './tree-node.js';
import type { TreeProblem } from './tree-problem.js';
import { TreeValidationError } from './tree-validation-error.js';
import { validateNode } from './validate-node.js';
import { indexNodes, validateAgents, validateLinkTargets } from './validate-structure.js';

/** Default `similarityThreshold` of nodes when neither they nor the root set one. */
export const DEFAULT_SIMILARITY_THRESHOLD = 0.25;

/**
 * Validates a tree definition and flattens its components. Throws a `TreeValidationError`
 * listing every problem at once, each naming the node and saying how to fix it.
 *
 * @example
 * const tree = defineTree({ nodes: [
 *   { id: 1, type: 'root' },
 *   { id: 2, type: 'agent', parent: 1, isPrimary: true },
 *   { id: 3, type: 'emit', parent: 2, chunks: ['hello'], emit: { message: { type: 'static', content: 'Hi!' } } },
 * ] });
 */
export function defineTree<S extends Self = Self>(definition: TreeDefinition<S>): Tree {
  const problems: TreeProblem[] = [];
  if (typeof definition !== 'object' || definition === null || !Array.isArray(definition.nodes)) {
    throw new TreeValidationError([
      { message: 'the definition has no "nodes" array.', fix: 'Pass { nodes: [...] }.' },
    ]);
  }
  const nodes = expandComponents(definition.nodes as NodeDefinition[], problems);
  nodes.forEach((node, index) => {
    if (typeof node !== 'object' || node === null) {
      problems.push({
        message: `the node at index ${index} is not an object.`,
        fix: 'Every node is an object { id, type, … }.',
      });
    } else validateNode(node as unknown as Record<string, unknown>, index, problems);
  });
  const index = indexNodes(
    nodes.filter((node) => typeof node === 'object' && node !== null),
    problems,
  );
  validateAgents(index, problems);
  const components = indexComponents(index, problems);
  validateLinkTargets(index, problems);
  validateChunkIds(index.byId.values(), problems);
  validateLanguages(definition.languages, problems);
  if (problems.length || !index.root) throw new TreeValidationError(problems);

  const root = index.root;
  const rootThreshold = root.type === 'root' ? root.defaultSimilarityThreshold : undefined;
  const defaultThreshold = rootThreshold ?? DEFAULT_SIMILARITY_THRESHOLD;
  const ragChunksExplore = root.type === 'root' && root.exploreForRagChunks === true;
  const childrenOf = new Map<number, number[]>();
  const isEffective = (node: NodeDefinition) =>
    node.type !== 'component' && node.type !== 'head' && node.type !== 'tail';
  for (const node of index.byId.values()) {
    if (!isEffective(node) || node.type === 'root') continue;
    const parent = effectiveParent(node.id, index, components)!;
    const siblings = childrenOf.get(parent);
    if (siblings) siblings.push(node.id);
    else childrenOf.set(parent, [node.id]);
  }

  const built = new Map<number, TreeNode>();
  const chunks: Chunk[] = [];
  const scopes = new Map<number, SelfScope>([
    [
      root.id,
      { id: root.id, kind: 'root', initNodeId: root.id, init: root.type === 'root' ? root.init : undefined },
    ],
  ]);
  /** Builds a node (its subtree's chunks are counted when the walk leaves it). */
  const visit = (
    id: number,
    parentId: number | null,
    depth: number,
    agentId: number | null,
    anchorId: number | null,
  ): TreeNode => {
    const definitionNode = index.byId.get(id)!;
    const ownAgent = definitionNode.type === 'agent' ? id : agentId;
    const chunkStart = chunks.length;
    const ownChunks: Chunk[] = (definitionNode.chunks ?? []).map((chunk, position) => {
      const item = typeof chunk === 'string' ? { text: chunk } : chunk;
      return {
        id: item.id ?? `${id}:${position}`,
        text: item.text,
        forRag: item.forRag ?? false,
        extra: item.extra ?? {},
        nodeId: id,
      };
    });
    // forRag chunks are retrieval-only: exploration routes by the others (docs/concepts.md §5).
    chunks.push(...ownChunks.filter((chunk) => ragChunksExplore || !chunk.forRag));
    const ownChunkEnd = chunks.length;
    const scopeComponent = components.enclosingComponent(id);
    const scopeId = scopeComponent ?? root.id;
    if (scopeComponent !== null && !scopes.has(scopeComponent)) {
      const head = components.headOf.get(scopeComponent)!;
      scopes.set(scopeComponent, {
        id: scopeComponent,
        kind: 'component',
        initNodeId: head.id,
        init: head.type === 'head' ? head.init : undefined,
      });
    }
    const children = childrenOf.get(id) ?? [];
    const node: TreeNode = {
      id,
      type: definitionNode.type as EffectiveNodeType,
      name: definitionNode.name,
      definition: definitionNode,
      parentId,
      children,
      depth,
      chunks: ownChunks,
      ragChunks: ownChunks.filter((chunk) => chunk.forRag),
      links: { ...(definitionNode.links ?? {}) },
      isBlocking: definitionNode.isBlocking ?? false,
      isAnchor: definitionNode.isAnchor ?? false,
      isMute: definitionNode.isMute ?? false,
      similarityThreshold: definitionNode.similarityThreshold ?? defaultThreshold,
      thresholdSource:
        definitionNode.similarityThreshold !== undefined
          ? 'node'
          : rootThreshold !== undefined
            ? 'root-default'
            : 'default',
      agentId: ownAgent,
      scopeId,
      anchorId: definitionNode.type === 'agent' ? null : anchorId,
      chunkStart,
      ownChunkEnd,
      chunkEnd: ownChunkEnd,
    };
    built.set(id, node);
    return node;
  };
  // Depth first, parents before children, with a stack of its own: a tree thousands of levels deep
  // is walked like a flat one (no recursion to overflow the call stack).
  const pending: { node: TreeNode; next: number }[] = [
    { node: visit(root.id, null, 0, null, null), next: 0 },
  ];
  while (pending.length) {
    const top = pending[pending.length - 1]!;
    const { node } = top;
    if (top.next < node.children.length) {
      const childAnchor = node.definition.isAnchor || node.type === 'agent' ? node.id : node.anchorId;
      const childAgent = node.type === 'agent' ? node.id : node.agentId;
      const child = visit(node.children[top.next++]!, node.id, node.depth + 1, childAgent, childAnchor);
      pending.push({ node: child, next: 0 });
    } else {
      (node as { chunkEnd: number }).chunkEnd = chunks.length;
      pending.pop();
    }
  }

  const expanded: TreeDefinition = {
    ...(definition.name ? { name: definition.name } : {}),
    ...(definition.languages ? { languages: [...definition.languages] } : {}),
    nodes,
  };
  const contentHash = createHash('sha256')
    .update(canonicalJson(definitionToJSON(expanded)))
    .digest('hex')
    .slice(0, 16);
  const primary = (index.childrenOf.get(root.id) ?? []).find(
    (node) => node.type === 'agent' && node.isPrimary,
  )!;
  return new Tree({
    name: definition.name ?? `tree-${contentHash}`,
    definition: expanded,
    nodes: built,
    chunks,
    scopes,
    contentHash,
    rootId: root.id,
    primaryAgentId: primary.id,
    languages: definition.languages ?? [],
  });
}

/** `languages`, when given: a non-empty list of distinct language codes (the first the default). */
function validateLanguages(languages: unknown, problems: TreeProblem[]): void {
  if (languages === undefined) return;
  const fix = 'Write languages as a list of language codes, the default first: languages: ["it", "en"].';
  if (!Array.isArray(languages) || languages.length === 0) {
    problems.push({ message: `"languages" is ${JSON.stringify(languages)}, not a list of languages.`, fix });
    return;
  }
  const seen = new Set<string>();
  for (const language of languages) {
    if (typeof language !== 'string' || !LANGUAGE_CODE_PATTERN.test(language))
      problems.push({
        message: `"languages" holds ${JSON.stringify(language)}, which is not a language code.`,
        fix,
      });
    else if (seen.has(language.toLowerCase()))
      problems.push({
        message: `"languages" lists ${JSON.stringify(language)} twice.`,
        fix: 'List each language once.',
      });
    else seen.add(language.toLowerCase());
  }
}

/** Chunk ids, explicit or default (`<nodeId>:<index>`), must be unique in the tree. */
function validateChunkIds(nodes: Iterable<NodeDefinition>, problems: TreeProblem[]): void {
  const seen = new Map<string, number>();
  for (const node of nodes) {
    (Array.isArray(node.chunks) ? node.chunks : []).forEach((chunk, position) => {
      const id =
        typeof chunk === 'object' && chunk !== null && chunk.id !== undefined
          ? chunk.id
          : `${node.id}:${position}`;
      const key = String(id);
      const owner = seen.get(key);
      if (owner !== undefined) {
        problems.push({
          nodeId: node.id,
          message: `chunk id ${JSON.stringify(id)} is used twice (also on node ${owner}).`,
          fix: 'Give every chunk its own id, or leave ids out.',
        });
      } else seen.set(key, node.id);
    });
  }
}

/** JSON with object keys sorted, so that equal definitions hash equally whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
