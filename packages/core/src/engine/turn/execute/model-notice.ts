import type { OutputMessage } from '../../../protocol/output-message.js';
import type { AfterSpecial } from '../../../tree/specials.js';
import type { TreeNode } from '../../../tree/tree-node.js';
import type { StepContext } from '../step-context.js';
import type { ExecuteResult } from './execute-result.js';

/**
 * `missingModels: 'notice'` (an authoring tool running a tree before its models are set up): the
 * node that needs the missing model answers with the notice, as a warning, and the turn ends there —
 * visibly, never as if the model had answered. The node's `after` sees `special` on the next message.
 */
export function noticeResult(
  turn: StepContext,
  node: TreeNode,
  notice: string,
  special: AfterSpecial,
): ExecuteResult {
  const id = turn.nextMessageId();
  turn.emit({ type: 'message-start', messageId: id, nodeId: node.id, messageType: 'static' });
  const message: OutputMessage = {
    id,
    nodeId: node.id,
    type: 'static',
    content: notice,
    options: [],
    attachments: [],
    dynamicAttachments: [],
    sources: [],
    waitInteraction: false,
    isWarning: true,
  };
  return { special, endsTurn: true, message };
}
