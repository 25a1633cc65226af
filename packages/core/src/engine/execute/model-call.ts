import { TreeAgentError } from '../../errors/tree-agent-error.js';
import type { LanguageModel, ModelRequest, ModelStreamPart, ModelUsage } from '../../model/language-model.js';
import type { TreeNode } from '../../tree/tree-node.js';
import type { StepContext } from '../step-context.js';

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

/** One non-streamed model call, timed and traced; failures become `MODEL` errors naming the node. */
export async function generateText(
  turn: StepContext,
  node: TreeNode,
  model: LanguageModel,
  request: ModelRequest,
  purpose: string,
  attempt = 1,
): Promise<string> {
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
    return response.text;
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

/** A streamed model call: each piece of text is emitted as a `text-delta` of `messageId`; returns the whole text. */
export async function streamText(
  turn: StepContext,
  node: TreeNode,
  model: LanguageModel,
  request: ModelRequest,
  purpose: string,
  messageId: string,
): Promise<string> {
  turn.checkAbort();
  const started = performance.now();
  const call = callSignal(turn);
  let text = '';
  let usage: ModelUsage | undefined;
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
      } else if (part.type === 'finish') {
        usage = part.usage;
      }
    }
    iterator = null;
    return text;
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
