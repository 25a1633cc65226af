import { validatePromptOutput } from '../../../callbacks/validate-outputs.js';
import type {
  LanguageModel,
  ModelContentPart,
  ModelMessage,
  ModelRequest,
} from '../../../model/language-model.js';
import type { BasePromptOutput } from '../../../tree/callback-outputs.js';
import { promptOf } from '../../../tree/node-callbacks.js';
import type { PromptSpecial } from '../../../tree/specials.js';
import type { TreeNode } from '../../../tree/tree-node.js';
import type { StepContext } from '../step-context.js';

/** Runs the node's `prompt` callback (or reads its constant), validated. `null` when the node has none. */
export async function resolvePrompt(turn: StepContext, node: TreeNode): Promise<BasePromptOutput | null> {
  const prompt = promptOf(node);
  if (prompt === undefined) return null;
  const special: PromptSpecial = { retrieved: [...turn.context.retrieved.values()].at(-1)?.slice() ?? [] };
  const output =
    typeof prompt === 'function'
      ? await turn.call(node, 'prompt', prompt, [await turn.selfOf(node), turn.context, special])
      : prompt;
  return validatePromptOutput(node.id, output);
}

/**
 * Builds the model request of a node: previous history when asked, then one user message made of
 * the segments, the files and the prompt text (the user's message when the prompt gives no text).
 * Parameters the model does not support are dropped with a `model-param-dropped` event.
 */
export async function buildModelRequest(
  turn: StepContext,
  node: TreeNode,
  model: LanguageModel,
  prompt: BasePromptOutput | null,
): Promise<ModelRequest> {
  const messages: ModelMessage[] = [];
  const historyLimit = prompt?.historyLimit ?? 0;
  if (historyLimit > 0) {
    const history = await turn.context.memoryAgent.history({ limit: historyLimit + 1 });
    for (const entry of history.slice(0, -1)) {
      // Handoff rows (`system`) are not messages of the conversation; operators' messages are the assistant's.
      if (entry.content !== null && entry.role !== 'system')
        messages.push({ role: entry.role, content: entry.content });
    }
  }
  const parts: ModelContentPart[] = [];
  for (const segment of prompt?.segments ?? []) {
    if (segment.type === 'text') parts.push({ type: 'text', text: segment.content });
    else for (const file of segment.content) parts.push({ type: 'file', file });
  }
  for (const file of prompt?.files ?? []) parts.push({ type: 'file', file });
  if (prompt?.prompt) parts.push({ type: 'text', text: prompt.prompt });
  if (!parts.some((part) => part.type === 'text'))
    parts.push({ type: 'text', text: turn.context.input.original });
  const onlyText = parts.every((part) => part.type === 'text');
  messages.push({
    role: 'user',
    content: onlyText ? parts.map((part) => (part as { text: string }).text).join('\n\n') : parts,
  });
  return {
    ...(prompt?.systemPrompt ? { system: prompt.systemPrompt } : {}),
    messages,
    params: supportedParams(turn, node, model, prompt?.modelParams ?? {}),
    ...(turn.input.signal ? { signal: turn.input.signal } : {}),
    readFile: (file) => turn.runtime.fileStore.read(file.id),
  };
}

function supportedParams(
  turn: StepContext,
  node: TreeNode,
  model: LanguageModel,
  params: Record<string, unknown>,
): Record<string, unknown> {
  if (!model.supportedParams) return { ...params };
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    if (model.supportedParams.includes(name)) kept[name] = value;
    else turn.emit({ type: 'model-param-dropped', nodeId: node.id, modelId: model.id, param: name });
  }
  return kept;
}
