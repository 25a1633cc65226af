import { TreeAgentError } from '../../../errors/tree-agent-error.js';
import { aNode } from '../../../tree/node-type-article.js';
import type { TreeNode } from '../../../tree/tree-node.js';
import type { StepContext } from '../step-context.js';
import { executeEmit } from './execute-emit.js';
import { executeGuardrail } from './execute-guardrail.js';
import { executeLlm } from './execute-llm.js';
import { executeQuery } from './execute-query.js';
import type { ExecuteResult } from './execute-result.js';

/** The execute step (docs/concepts.md §2 table): what the node does is fixed by its type. */
export async function executeNode(turn: StepContext, node: TreeNode): Promise<ExecuteResult> {
  switch (node.type) {
    case 'empty':
    case 'switch':
      return { special: { kind: 'empty' }, endsTurn: false };
    case 'query':
      return executeQuery(turn, node);
    case 'llm':
      return executeLlm(turn, node);
    case 'emit':
      return executeEmit(turn, node);
    case 'guardrail':
      return executeGuardrail(turn, node);
    default:
      throw new TreeAgentError(
        'INVALID_STEP',
        `Node ${node.id} is ${aNode(node.type)} node, which cannot be executed.`,
        { nodeId: node.id },
      );
  }
}
