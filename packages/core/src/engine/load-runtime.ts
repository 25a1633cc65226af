import type { Embedder } from '../embedding/embedder.js';
import type { EmbeddingCache } from '../embedding/embedding-cache.js';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import { ChunkIndex } from '../explore/chunk-index.js';
import type { FileStore } from '../files/file-store.js';
import type { LanguageModel } from '../model/language-model.js';
import type { Tree } from '../tree/tree.js';
import type { VectorStore } from '../vector/vector-store.js';
import type { AgentRuntime, TurnLimits } from './runtime.js';

export interface RuntimeParts {
  tree: Tree;
  embedder: Embedder;
  embeddingCache: EmbeddingCache;
  vectorStore: VectorStore;
  fileStore: FileStore;
  models: Record<string, LanguageModel>;
  limits: TurnLimits;
  now: () => Date;
}

/**
 * Prepares a tree to run: checks that the models it needs statically are configured, embeds every
 * chunk once (through the cache) and puts each query node's `forRag` chunks in its collection,
 * removing chunks that are no longer in the tree.
 */
export async function loadRuntime(parts: RuntimeParts): Promise<AgentRuntime> {
  const { tree, models } = parts;
  checkStaticModels(tree, models);
  const index = await ChunkIndex.build(tree, parts.embedder, parts.embeddingCache);
  const collectionOf = (nodeId: number) => `${tree.name}:${nodeId}`;
  for (const node of tree.nodes.values()) {
    if (node.type !== 'query') continue;
    const collection = collectionOf(node.id);
    const records = [];
    for (let position = node.chunkStart; position < node.ownChunkEnd; position++) {
      const chunk = tree.chunks[position]!;
      if (chunk.forRag)
        records.push({
          id: chunk.id,
          text: chunk.text,
          vector: index.vector(position),
          payload: chunk.extra,
        });
    }
    const keep = new Set(records.map((record) => String(record.id)));
    const stale = (await parts.vectorStore.ids(collection)).filter((id) => !keep.has(String(id)));
    if (stale.length) await parts.vectorStore.delete(collection, stale);
    if (records.length) await parts.vectorStore.upsert(collection, records);
  }
  return { ...parts, index, collectionOf };
}

function checkStaticModels(tree: Tree, models: Record<string, LanguageModel>): void {
  const needs: { nodeId: number; what: string; model: string }[] = [];
  const root = tree.root.definition;
  if (root.type === 'root' && root.smartExtendedMessage)
    needs.push({ nodeId: root.id, what: 'smartExtendedMessage', model: root.model ?? 'default' });
  for (const node of tree.nodes.values()) {
    const definition = node.definition;
    if (definition.type === 'guardrail' && typeof definition.warning !== 'string') {
      needs.push({ nodeId: node.id, what: 'a generated warning', model: definition.model ?? 'default' });
    }
    if (definition.type === 'llm')
      needs.push({ nodeId: node.id, what: 'an llm node', model: definition.model ?? 'default' });
  }
  const missing = needs.filter((need) => !models[need.model]);
  if (missing.length) {
    const lines = missing
      .map((need) => `node ${need.nodeId} (${need.what}) needs model "${need.model}"`)
      .join('; ');
    throw new TreeAgentError(
      'MODEL_NOT_CONFIGURED',
      `The tree needs language models that are not configured: ${lines}. Pass them as models: { default: …, <name>: … } to new TreeAgent(...).`,
      {
        nodeId: missing[0]!.nodeId,
      },
    );
  }
}
