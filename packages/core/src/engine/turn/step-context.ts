import type { CallbackLimits } from '../../callbacks/invoke-callback.js';
import type { Context } from '../../context/context.js';
import type { LanguageModel } from '../../model/language-model.js';
import type { AgentEvent } from '../../protocol/events.js';
import type { LocalizedText } from '../../protocol/localized-text.js';
import type { Self } from '../../tree/node-definition.js';
import type { TreeNode } from '../../tree/tree-node.js';
import type { AgentRuntime } from '../runtime/runtime.js';
import type { TurnInput } from './turn-input.js';

/**
 * What a step (extend message, execute, a model call) may use of its turn: read the runtime, the
 * input and the callbacks' `context`, emit events and run callbacks. It cannot change the turn's
 * state — `context` is the author-facing `Context`, so moving `context.node`, adding retrieved
 * chunks or counting a failure is a compile error (`step-context.type-test.ts`): a step returns its
 * result and the step loop applies it (`Turn.applyExecution`, …), so each step can be tested with a
 * small object of this shape instead of a whole `TreeAgent`.
 */
export interface StepContext {
  readonly runtime: AgentRuntime;
  readonly input: TurnInput;
  readonly context: Context;
  readonly sessionId: string;
  emit(event: AgentEvent): void;
  /** Throws `ABORTED` when the caller cancelled the turn. */
  checkAbort(): void;
  /**
   * Runs a callback of `node` with `context.node` set to it; `limits` replace the turn's callback
   * limits (a tool applies its own `timeoutMs`).
   */
  call(
    node: TreeNode,
    name: string,
    fn: (...args: any[]) => unknown,
    args: unknown[],
    reportAs?: number,
    limits?: CallbackLimits,
  ): Promise<unknown>;
  /** The `self` of the node's scope, running the scope's `init` the first time the turn touches it. */
  selfOf(node: TreeNode): Promise<Self>;
  /** Unit vectors of `texts`, through the embedding cache. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** The language model for `node`: its own `model`, else the tree's default (`MODEL_NOT_CONFIGURED`). */
  modelFor(node: TreeNode, purpose: string): LanguageModel;
  /**
   * With `missingModels: 'notice'` and no model configured for `node`: the warning the node answers
   * with instead (what is missing and how to configure it). Otherwise null.
   */
  missingModelNotice(node: TreeNode, purpose: string): string | null;
  /** The id of the next message of the turn (`<turn>-<index>`). */
  nextMessageId(): string;
  /** A customer text in the session's language (docs/multilingual-trees.md). */
  localize(text: LocalizedText): string;
}
