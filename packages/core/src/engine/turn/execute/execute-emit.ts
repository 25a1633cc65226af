import { validateEmitOutput } from '../../../callbacks/validate-outputs.js';
import { TreeAgentError } from '../../../errors/tree-agent-error.js';
import { MessageType } from '../../../protocol/constants.js';
import type { FileMetadata } from '../../../protocol/file-metadata.js';
import type { OutputMessage } from '../../../protocol/output-message.js';
import type { BaseEmitOutput } from '../../../tree/callback-outputs.js';
import type { EmitNodeDefinition } from '../../../tree/node-definition.js';
import type { TreeNode } from '../../../tree/tree-node.js';
import type { StepContext } from '../step-context.js';
import type { ExecuteResult } from './execute-result.js';
import { streamText } from './model-call.js';
import { noticeResult } from './model-notice.js';
import { buildModelRequest, resolvePrompt } from './model-request.js';
import { nodeTools } from './tool-runner.js';

/**
 * Emit (docs/concepts.md §2): the `emit` output decides the message; a GENERATED one is streamed from the model
 * through the node's `prompt`. The message is delivered; the turn ends unless the node is mute.
 */
export async function executeEmit(turn: StepContext, node: TreeNode): Promise<ExecuteResult> {
  const definition = node.definition as EmitNodeDefinition;
  let output: BaseEmitOutput;
  if (typeof definition.emit === 'function') {
    output = validateEmitOutput(
      node.id,
      await turn.call(node, 'emit', definition.emit, [await turn.selfOf(node), turn.context]),
    );
  } else if (definition.emit) {
    output = validateEmitOutput(node.id, definition.emit);
  } else if (definition.prompt) {
    output = validateEmitOutput(node.id, { message: { type: MessageType.GENERATED } });
  } else {
    throw new TreeAgentError(
      'INVALID_CALLBACK_OUTPUT',
      `Emit node ${node.id} has neither "emit" nor "prompt", so it has nothing to send. Give it an emit output or a prompt.`,
      {
        nodeId: node.id,
        callback: 'emit',
      },
    );
  }
  checkFilesBelongToSession(node.id, turn.sessionId, [
    ...(output.attachments ?? []),
    ...(output.dynamicAttachments ?? []),
  ]);
  const notice =
    output.message.type === MessageType.GENERATED
      ? turn.missingModelNotice(node, 'a GENERATED message')
      : null;
  if (notice) return noticeResult(turn, node, notice, { kind: 'emit', message: null, selectedOption: null });
  const id = turn.nextMessageId();
  turn.emit({ type: 'message-start', messageId: id, nodeId: node.id, messageType: output.message.type });
  let content: string | null = output.message.content == null ? null : turn.localize(output.message.content);
  if (output.message.type === MessageType.GENERATED) {
    const prompt = await resolvePrompt(turn, node);
    const model = turn.modelFor(node, 'a GENERATED message');
    content = await streamText(
      turn,
      node,
      model,
      await buildModelRequest(turn, node, model, prompt),
      'emit',
      id,
      nodeTools(node, model),
    );
  }
  const message: OutputMessage = {
    id,
    nodeId: node.id,
    type: output.message.type,
    content: output.message.type === MessageType.NONE ? null : content,
    options: (output.options ?? []).map((option) => turn.localize(option)),
    attachments: output.attachments ?? [],
    dynamicAttachments: output.dynamicAttachments ?? [],
    sources: output.sources ?? [],
    waitInteraction: output.waitInteraction ?? false,
    isWarning: false,
  };
  return { special: { kind: 'emit', message, selectedOption: null }, endsTurn: !node.isMute, message };
}

/** A message may only carry files of its own session (or files of no session, such as RAG files). */
function checkFilesBelongToSession(nodeId: number, sessionId: string, files: readonly FileMetadata[]): void {
  for (const file of files) {
    if (file.sessionId !== undefined && file.sessionId !== sessionId) {
      throw new TreeAgentError(
        'INVALID_CALLBACK_OUTPUT',
        `The "emit" callback of node ${nodeId} attached file "${file.name}" (${file.id}), which belongs to another session. A message can only carry files of its own session.`,
        { nodeId, callback: 'emit', details: { fileId: file.id } },
      );
    }
  }
}
