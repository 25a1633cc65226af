import { TreeAgentError } from '../../errors/tree-agent-error.js';
import type { LanguageModel, ModelRequest } from '../../model/language-model.js';
import type { TreeNode } from '../../tree/tree-node.js';
import type { Turn } from '../turn.js';

/** One non-streamed model call, timed and traced; failures become `MODEL` errors naming the node. */
export async function generateText(
  turn: Turn,
  node: TreeNode,
  model: LanguageModel,
  request: ModelRequest,
  purpose: string,
  attempt = 1,
): Promise<string> {
  turn.checkAbort();
  const started = performance.now();
  try {
    const response = await model.generate(request);
    if (typeof response?.text !== 'string') throw new Error('the model returned no text');
    return response.text;
  } catch (error) {
    throw modelError(turn, node, model, purpose, error);
  } finally {
    turn.emit({
      type: 'model-call',
      nodeId: node.id,
      modelId: model.id,
      purpose,
      durationMs: performance.now() - started,
      attempt,
    });
  }
}

/** A streamed model call: each piece of text is emitted as a `text-delta` of `messageId`; returns the whole text. */
export async function streamText(
  turn: Turn,
  node: TreeNode,
  model: LanguageModel,
  request: ModelRequest,
  purpose: string,
  messageId: string,
): Promise<string> {
  turn.checkAbort();
  const started = performance.now();
  let text = '';
  try {
    for await (const part of model.stream(request)) {
      turn.checkAbort();
      if (part.type === 'text-delta' && part.delta) {
        text += part.delta;
        turn.emit({ type: 'text-delta', messageId, nodeId: node.id, delta: part.delta });
      }
    }
    return text;
  } catch (error) {
    throw modelError(turn, node, model, purpose, error);
  } finally {
    turn.emit({
      type: 'model-call',
      nodeId: node.id,
      modelId: model.id,
      purpose,
      durationMs: performance.now() - started,
      attempt: 1,
    });
  }
}

function modelError(
  turn: Turn,
  node: TreeNode,
  model: LanguageModel,
  purpose: string,
  error: unknown,
): TreeAgentError {
  if (TreeAgentError.isInstance(error) && error.code === 'ABORTED') return error;
  if (turn.input.signal?.aborted) {
    return new TreeAgentError('ABORTED', 'The interaction was cancelled by the caller; nothing was saved.', {
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new TreeAgentError(
    'MODEL',
    `Model "${model.id}" failed for ${purpose} on node ${node.id}: ${message}`,
    {
      nodeId: node.id,
      cause: error,
      details: { modelId: model.id },
    },
  );
}
