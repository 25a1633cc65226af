import { validateQueryOutput } from '../../../callbacks/validate-outputs.js';
import { TreeAgentError } from '../../../errors/tree-agent-error.js';
import { validateFilter } from '../../../filter/validate-filter.js';
import type { RetrievedChunk } from '../../../protocol/retrieved-chunk.js';
import type { QueryNodeDefinition } from '../../../tree/node-definition.js';
import type { TreeNode } from '../../../tree/tree-node.js';
import type { StepContext } from '../step-context.js';
import type { ExecuteResult } from './execute-result.js';

/**
 * Query (docs/concepts.md §6): semantic search among the node's `forRag` chunks, or a scroll when the output has
 * no `query`. Without a `query` callback the node searches with the explore direction.
 */
export async function executeQuery(turn: StepContext, node: TreeNode): Promise<ExecuteResult> {
  const definition = node.definition as QueryNodeDefinition;
  const raw =
    typeof definition.query === 'function'
      ? await turn.call(node, 'query', definition.query, [await turn.selfOf(node), turn.context])
      : (definition.query ?? { query: turn.context.exploreStrategy.direction });
  const output = validateQueryOutput(node.id, raw);
  if (output.filter) {
    try {
      validateFilter(output.filter, 'filter');
    } catch (error) {
      throw new TreeAgentError(
        'INVALID_CALLBACK_OUTPUT',
        `The "query" callback of node ${node.id} returned an invalid filter: ${(error as Error).message}`,
        {
          nodeId: node.id,
          callback: 'query',
          cause: error,
        },
      );
    }
  }
  const { vectorStore } = turn.runtime;
  const collection = turn.runtime.collectionOf(node.id);
  let chunks: RetrievedChunk[];
  let nextOffset: string | null = null;
  try {
    if (output.query !== null) {
      const [vector] = await turn.embed([output.query]);
      chunks = await vectorStore.search({
        collection,
        vector: vector!,
        limit: output.chunkQty,
        threshold: output.threshold,
        filter: output.filter,
        exclude: output.blackList,
      });
    } else {
      const page = await vectorStore.scroll({
        collection,
        limit: output.chunkQty,
        offset: output.offset,
        filter: output.filter,
        exclude: output.blackList,
      });
      chunks = page.chunks;
      nextOffset = page.nextOffset;
    }
  } catch (error) {
    if (TreeAgentError.isInstance(error)) throw error;
    throw new TreeAgentError(
      'VECTOR_STORE',
      `The vector store failed for query node ${node.id}: ${(error as Error)?.message ?? error}`,
      { nodeId: node.id, cause: error },
    );
  }
  turn.emit({
    type: 'query-result',
    nodeId: node.id,
    query: output.query,
    chunkIds: chunks.map((chunk) => chunk.id),
    nextOffset,
  });
  return {
    special: { kind: 'query', query: output.query, chunks, nextOffset },
    endsTurn: false,
    retrieved: chunks,
  };
}
