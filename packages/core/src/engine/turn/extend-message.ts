import { validateExtendMessageOutput } from '../../callbacks/validate-outputs.js';
import { rootDefinitionOf } from '../../tree/node-callbacks.js';
import type { RootNodeDefinition } from '../../tree/node-definition.js';
import { generateText } from './execute/model-call.js';
import type { StepContext } from './step-context.js';

/** How many previous history entries the extended message looks at by default. */
const EXTEND_HISTORY = 8;

/**
 * docs/concepts.md §3 step 4: when the root has `smartExtendedMessage`, the Memory Agent asks the model to
 * rewrite the user's message with the implicit references of the conversation. The prompt comes
 * from the root's `extendMessage` callback, or a default guided by `conversationGoal` and `topics`.
 * Returns the rewritten message (`null`: none), which `Turn.applyExtendedMessage` applies.
 */
export async function extendMessage(turn: StepContext): Promise<string | null> {
  const root = turn.runtime.tree.root;
  const definition = rootDefinitionOf(root);
  if (!definition?.smartExtendedMessage) return null;
  // No model to rewrite with (missingModels: 'notice'): the message routes as written.
  if (turn.missingModelNotice(root, 'the smart extended message')) return null;
  const history = (await turn.context.memoryAgent.history({ limit: EXTEND_HISTORY + 1 })).slice(0, -1);
  if (history.length === 0) return null;
  let prompt: { prompt: string; systemPrompt?: string };
  if (definition.extendMessage) {
    const output = await turn.call(root, 'extendMessage', definition.extendMessage, [
      await turn.selfOf(root),
      turn.context,
      { history },
    ]);
    prompt = validateExtendMessageOutput(root.id, output);
  } else {
    prompt = defaultPrompt(
      definition,
      history.map((entry) => `${entry.role}: ${entry.content ?? ''}`).join('\n'),
      turn.input.message,
      definition.conversationGoal === undefined ? '' : turn.localize(definition.conversationGoal),
    );
  }
  const model = turn.modelFor(root, 'the smart extended message');
  const text = await generateText(
    turn,
    root,
    model,
    {
      ...(prompt.systemPrompt ? { system: prompt.systemPrompt } : {}),
      messages: [{ role: 'user', content: prompt.prompt }],
      params: {},
    },
    'extend-message',
  );
  return text.trim() || null;
}

function defaultPrompt(
  root: RootNodeDefinition,
  transcript: string,
  message: string,
  goal: string,
): { prompt: string; systemPrompt: string } {
  const guide = [
    goal ? `Goal of the conversation: ${goal}` : '',
    root.topics?.length ? `Topics: ${root.topics.join(', ')}` : '',
  ].filter(Boolean);
  return {
    systemPrompt:
      'Rewrite the last user message so that it can be understood without the conversation: resolve pronouns and implicit references using the conversation. Keep the language and the meaning of the message. Answer with the rewritten message only.',
    prompt: [...guide, `Conversation:\n${transcript}`, `Last user message: ${message}`].join('\n\n'),
  };
}
