import { TreeAgentError } from '../../../errors/tree-agent-error.js';
import type {
  LanguageModel,
  ModelRequest,
  ModelStreamPart,
  ModelToolCall,
  ModelToolResultPart,
  ModelUsage,
} from '../../../model/language-model.js';
import type { TreeNode } from '../../../tree/tree-node.js';
import type { StepContext } from '../step-context.js';
import { type NodeTools, runToolCall } from './tool-runner.js';

/** Why a model call's own signal was aborted: the time limit (the turn's cancellation has its own reason). */
class ModelTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the model call exceeded ${timeoutMs} ms`);
    this.name = 'ModelTimeout';
  }
}

/**
 * The signal of one model call: the turn's cancellation, plus the `modelTimeoutMs` limit. The
 * returned `expired` promise rejects when either fires, so a model that ignores its signal is
 * abandoned anyway.
 */
function callSignal(turn: StepContext): {
  signal: AbortSignal | undefined;
  expired: Promise<never>;
  done(): void;
} {
  const timeoutMs = turn.runtime.limits.modelTimeoutMs;
  const outer = turn.input.signal;
  const limited = timeoutMs > 0 && Number.isFinite(timeoutMs);
  if (!limited && !outer) return { signal: undefined, expired: new Promise<never>(() => {}), done: () => {} };
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reject!: (reason: unknown) => void;
  const expired = new Promise<never>((_, fail) => (reject = fail));
  expired.catch(() => {});
  const onAbort = () => {
    controller.abort(outer?.reason);
    reject(outer?.reason ?? new Error('aborted'));
  };
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  if (limited && !controller.signal.aborted) {
    timer = setTimeout(() => {
      const reason = new ModelTimeout(timeoutMs);
      controller.abort(reason);
      reject(reason);
    }, timeoutMs);
    timer.unref?.();
  }
  return {
    signal: controller.signal,
    expired,
    done: () => {
      if (timer !== undefined) clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

/** What one model call (one step) produced: its text, and the tools it called. */
interface StepAnswer {
  text: string;
  toolCalls: ModelToolCall[];
}

/**
 * A non-streamed model request, timed and traced; failures become `MODEL` errors naming the node.
 * With `tools`, the model's tool calls run and their results go back to it until it answers (or
 * `maxToolSteps` is reached); the text returned is the final answer's.
 */
export async function generateText(
  turn: StepContext,
  node: TreeNode,
  model: LanguageModel,
  request: ModelRequest,
  purpose: string,
  attempt = 1,
  tools: NodeTools | null = null,
): Promise<string> {
  let text = '';
  await runSteps(turn, node, request, tools, async (stepRequest) => {
    const answer = await generateStep(turn, node, model, stepRequest, purpose, attempt);
    text = answer.text;
    return answer;
  });
  return text;
}

/**
 * A streamed model request: each piece of text is emitted as a `text-delta` of `messageId`; returns
 * the whole text. With `tools`, the steps of the tool loop stream into the same message.
 */
export async function streamText(
  turn: StepContext,
  node: TreeNode,
  model: LanguageModel,
  request: ModelRequest,
  purpose: string,
  messageId: string,
  tools: NodeTools | null = null,
): Promise<string> {
  let text = '';
  await runSteps(turn, node, request, tools, async (stepRequest) => {
    const answer = await streamStep(turn, node, model, stepRequest, purpose, messageId);
    text += answer.text;
    return answer;
  });
  return text;
}

/**
 * The tool loop (docs/models.md, *Tools*): ask the model; while it calls tools, run them one after
 * the other and ask again with their results appended to `request.messages`. After `maxToolSteps`
 * steps with tool calls, the last request has `toolChoice: 'none'`: the model must answer in text.
 */
async function runSteps(
  turn: StepContext,
  node: TreeNode,
  request: ModelRequest,
  tools: NodeTools | null,
  step: (request: ModelRequest) => Promise<StepAnswer>,
): Promise<void> {
  if (!tools) {
    await step(request);
    return;
  }
  for (let index = 1; ; index++) {
    const last = index > tools.maxSteps;
    const answer = await step({ ...request, tools: tools.forModel, toolChoice: last ? 'none' : 'auto' });
    if (answer.toolCalls.length === 0 || last) return;
    request.messages.push({
      role: 'assistant',
      content: [
        ...(answer.text ? [{ type: 'text' as const, text: answer.text }] : []),
        ...answer.toolCalls.map((call) => ({ type: 'tool-call' as const, ...call })),
      ],
    });
    const results: ModelToolResultPart[] = [];
    for (const call of answer.toolCalls) results.push(await runToolCall(turn, node, tools, call, index));
    request.messages.push({ role: 'tool', content: results });
    turn.checkAbort();
  }
}

/** One non-streamed model call. */
async function generateStep(
  turn: StepContext,
  node: TreeNode,
  model: LanguageModel,
  request: ModelRequest,
  purpose: string,
  attempt: number,
): Promise<StepAnswer> {
  turn.checkAbort();
  const started = performance.now();
  const call = callSignal(turn);
  let usage: ModelUsage | undefined;
  try {
    const response = await Promise.race([
      model.generate(call.signal ? { ...request, signal: call.signal } : request),
      call.expired,
    ]);
    if (typeof response?.text !== 'string') throw new Error('the model returned no text');
    usage = response.usage;
    return { text: response.text, toolCalls: request.tools ? (response.toolCalls ?? []) : [] };
  } catch (error) {
    throw modelError(turn, node, model, purpose, error, call.signal);
  } finally {
    call.done();
    turn.emit({
      type: 'model-call',
      nodeId: node.id,
      modelId: model.id,
      purpose,
      durationMs: performance.now() - started,
      attempt,
      ...usageFields(usage),
    });
  }
}

/** One streamed model call: text deltas are emitted as they come, tool calls collected. */
async function streamStep(
  turn: StepContext,
  node: TreeNode,
  model: LanguageModel,
  request: ModelRequest,
  purpose: string,
  messageId: string,
): Promise<StepAnswer> {
  turn.checkAbort();
  const started = performance.now();
  const call = callSignal(turn);
  let text = '';
  let usage: ModelUsage | undefined;
  const toolCalls: ModelToolCall[] = [];
  let iterator: AsyncIterator<ModelStreamPart> | null = null;
  try {
    iterator = model
      .stream(call.signal ? { ...request, signal: call.signal } : request)
      [Symbol.asyncIterator]();
    for (;;) {
      const next = await Promise.race([iterator.next(), call.expired]);
      if (next.done) break;
      turn.checkAbort();
      const part = next.value;
      if (part.type === 'text-delta' && part.delta) {
        text += part.delta;
        turn.emit({ type: 'text-delta', messageId, nodeId: node.id, delta: part.delta });
      } else if (part.type === 'tool-call' && request.tools) {
        toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
      } else if (part.type === 'finish') {
        usage = part.usage;
      }
    }
    iterator = null;
    return { text, toolCalls };
  } catch (error) {
    throw modelError(turn, node, model, purpose, error, call.signal);
  } finally {
    call.done();
    // A stream left early (error, timeout, cancellation) is closed so the provider can free the request.
    if (iterator?.return) Promise.resolve(iterator.return()).catch(() => {});
    turn.emit({
      type: 'model-call',
      nodeId: node.id,
      modelId: model.id,
      purpose,
      durationMs: performance.now() - started,
      attempt: 1,
      ...usageFields(usage),
    });
  }
}

function modelError(
  turn: StepContext,
  node: TreeNode,
  model: LanguageModel,
  purpose: string,
  error: unknown,
  signal: AbortSignal | undefined,
): TreeAgentError {
  if (TreeAgentError.isInstance(error) && error.code === 'ABORTED') return error;
  if (turn.input.signal?.aborted) {
    return new TreeAgentError('ABORTED', 'The interaction was cancelled by the caller; nothing was saved.', {
      cause: error,
    });
  }
  const timeout = signal?.reason instanceof ModelTimeout ? signal.reason : null;
  if (timeout) {
    return new TreeAgentError(
      'TIMEOUT',
      `Model "${model.id}" did not finish ${purpose} on node ${node.id} within ${timeout.timeoutMs} ms (modelTimeoutMs); the call was aborted.`,
      { nodeId: node.id, cause: error, details: { modelId: model.id, timeoutMs: timeout.timeoutMs } },
    );
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

/** The token counts a provider reported, as `model-call` event fields (none when it reported none). */
function usageFields(usage: ModelUsage | undefined): { inputTokens?: number; outputTokens?: number } {
  return {
    ...(typeof usage?.inputTokens === 'number' ? { inputTokens: usage.inputTokens } : {}),
    ...(typeof usage?.outputTokens === 'number' ? { outputTokens: usage.outputTokens } : {}),
  };
}
