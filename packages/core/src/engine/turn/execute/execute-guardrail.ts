import type { OutputMessage } from '../../../protocol/output-message.js';
import type { GuardrailNodeDefinition, GuardrailWarning } from '../../../tree/node-definition.js';
import type { TreeNode } from '../../../tree/tree-node.js';
import type { StepContext } from '../step-context.js';
import type { ExecuteResult } from './execute-result.js';
import { streamText } from './model-call.js';
import { noticeResult } from './model-notice.js';
import { buildModelRequest } from './model-request.js';

function isGenerated(warning: GuardrailWarning): warning is Extract<GuardrailWarning, { type: 'generated' }> {
  return typeof warning !== 'string' && warning.type === 'generated';
}

/** Guardrail: sends its warning (fixed, or generated and streamed); the turn ends unless the node is mute. */
export async function executeGuardrail(turn: StepContext, node: TreeNode): Promise<ExecuteResult> {
  const { warning } = node.definition as GuardrailNodeDefinition;
  const notice = typeof warning === 'string' ? null : turn.missingModelNotice(node, 'a generated warning');
  if (notice) return noticeResult(turn, node, notice, { kind: 'empty' });
  const id = turn.nextMessageId();
  const generated = isGenerated(warning);
  turn.emit({
    type: 'message-start',
    messageId: id,
    nodeId: node.id,
    messageType: generated ? 'generated' : 'static',
  });
  let content: string;
  if (!isGenerated(warning)) content = turn.localize(warning);
  else {
    const model = turn.modelFor(node, 'a generated guardrail warning');
    // The instruction goes in the system prompt; the user's message is the user turn.
    const system = warning.systemPrompt ? `${warning.systemPrompt}\n\n${warning.prompt}` : warning.prompt;
    const prompt = { prompt: null, systemPrompt: system };
    content = await streamText(
      turn,
      node,
      model,
      await buildModelRequest(turn, node, model, prompt),
      'guardrail',
      id,
    );
  }
  const message: OutputMessage = {
    id,
    nodeId: node.id,
    type: generated ? 'generated' : 'static',
    content,
    options: [],
    attachments: [],
    dynamicAttachments: [],
    sources: [],
    waitInteraction: false,
    isWarning: true,
  };
  return { special: { kind: 'empty' }, endsTurn: !node.isMute, message };
}
