import { validateResponseFormatOutput } from '../../../callbacks/validate-outputs.js';
import type { LlmNodeDefinition } from '../../../tree/node-definition.js';
import type { LlmAfterSpecial } from '../../../tree/specials.js';
import type { TreeNode } from '../../../tree/tree-node.js';
import type { StepContext } from '../step-context.js';
import type { ExecuteResult } from './execute-result.js';
import { checkJson } from './json-answer.js';
import { generateText } from './model-call.js';
import { noticeResult } from './model-notice.js';
import { buildModelRequest, resolvePrompt } from './model-request.js';
import { nodeTools } from './tool-runner.js';

/**
 * LLM (docs/concepts.md §2): one request built from `prompt`; with `responseFormat` the answer must be JSON
 * matching the schema, asked again with the validation errors up to `attemptsLimit` times. With
 * `tools`, the model's tool calls run between its steps (docs/models.md, *Tools*).
 */
export async function executeLlm(turn: StepContext, node: TreeNode): Promise<ExecuteResult> {
  const definition = node.definition as LlmNodeDefinition;
  const notice = turn.missingModelNotice(node, 'an llm node');
  if (notice)
    return noticeResult(turn, node, notice, {
      kind: 'llm',
      text: '',
      object: null,
      failResponseFormat: false,
      attempts: 0,
    });
  const prompt = await resolvePrompt(turn, node);
  let format: ReturnType<typeof validateResponseFormatOutput> | null = null;
  if (typeof definition.responseFormat === 'function') {
    format = validateResponseFormatOutput(
      node.id,
      await turn.call(node, 'responseFormat', definition.responseFormat, [
        await turn.selfOf(node),
        turn.context,
      ]),
    );
  } else if (definition.responseFormat) {
    format = validateResponseFormatOutput(node.id, definition.responseFormat);
  }
  const model = turn.modelFor(node, 'an llm node');
  const request = await buildModelRequest(turn, node, model, prompt);
  const tools = nodeTools(node, model);
  if (!format) {
    const text = await generateText(turn, node, model, request, 'llm', 1, tools);
    return result({ kind: 'llm', text, object: null, failResponseFormat: false, attempts: 1 });
  }
  request.responseFormat = { name: format.name, schema: format.schema };
  let text = '';
  for (let attempt = 1; attempt <= format.attemptsLimit; attempt++) {
    text = await generateText(turn, node, model, request, 'llm', attempt, tools);
    const checked = checkJson(text, format.schema);
    if (checked.ok)
      return result({
        kind: 'llm',
        text,
        object: checked.value,
        failResponseFormat: false,
        attempts: attempt,
      });
    request.messages.push(
      { role: 'assistant', content: text },
      {
        role: 'user',
        content: `Your answer does not match the required JSON schema: ${checked.error}. Answer again with only the JSON object.`,
      },
    );
  }
  return result({
    kind: 'llm',
    text,
    object: null,
    failResponseFormat: true,
    attempts: format.attemptsLimit,
  });
}

function result(special: LlmAfterSpecial): ExecuteResult {
  return { special, endsTurn: false };
}
