import type {
  BaseFallbackOutput,
  Context,
  FallbackCallback,
  FallbackSpecial,
  Links,
  Self,
} from '@treeagent/core';
import { activeForm, clearFormState, loadFormState } from './form-state.js';

/**
 * Wraps an agent's `fallback` so that a message nothing in the agent fits goes back to the form in
 * progress (its resume node), which reads it as the answer to its question or asks again. Without
 * a form in progress, or for errors other than a no-match, `otherwise` runs.
 *
 * @example
 * { id: 2, type: 'agent', parent: 1, isPrimary: true, links: { sorry: 90 },
 *   fallback: formFallback((_self, _context, _special, links) => ({ nodeTarget: links.sorry! })) }
 */
export function formFallback<S extends Self = Self>(otherwise: FallbackCallback<S>): FallbackCallback<S> {
  return (self: S, context: Context, special: FallbackSpecial, links: Links) => {
    const target = formResumeTarget(context, special);
    return target !== undefined
      ? ({ nodeTarget: target, resumes: true } satisfies BaseFallbackOutput)
      : otherwise(self, context, special, links);
  };
}

/**
 * The resume node of the form in progress when the fallback handles a no-match, else `undefined`.
 * A form whose state is gone, or left for more than its `expireAfterTurns` interactions, is dropped.
 */
export function formResumeTarget(context: Context, special: FallbackSpecial): number | undefined {
  if (!special.noMatch) return undefined;
  const active = activeForm(context);
  if (!active) return undefined;
  const state = loadFormState(context, active.name);
  const expired = !state || context.turn - state.lastTurn > (active.expireAfterTurns ?? 10);
  if (expired || special.nodeId === active.resumeNodeId) {
    clearFormState(context, active.name);
    return undefined;
  }
  return active.resumeNodeId;
}
