import type { AgentEvent } from '../../protocol/events.js';
import type { AgentRuntime } from '../runtime/runtime.js';

type Decision = Extract<AgentEvent, { type: 'explore-decision' }>;

/**
 * Routes `text` in the runtime's space without running anything, and returns its decisions: the
 * first leg of a cascade (`routeIn` from route.ts, passed in to keep this file free of it).
 */
export type DryRoute<T extends { decisions: Decision[] }> = (
  runtime: AgentRuntime,
  text: string,
) => Promise<T>;

/**
 * The runtime a message routes on. Without a cascade, `runtime` itself. With one
 * (`runtime.escalation`, from a `FittedSpace.escalation`), the message is first routed in the
 * runtime's own (cheap) space; when a decision on its way is unsure — its best child leads the
 * runner-up by less than `margin`, or its best similarity is within `gap` of the node's threshold —
 * the runtime of the second space, where the turn embeds the message again and routes with that
 * space's thresholds (docs/routing.md, "A cascade"). `firstLeg`: that first route, when it was made
 * and the first runtime kept (a caller routing the same way need not route again).
 */
export async function routingRuntime<T extends { decisions: Decision[] }>(
  runtime: AgentRuntime,
  text: string,
  dryRoute: DryRoute<T>,
): Promise<{ runtime: AgentRuntime; firstLeg?: T }> {
  const escalation = runtime.escalation;
  if (!escalation || !text.trim()) return { runtime };
  const firstLeg = await dryRoute(runtime, text);
  return firstLeg.decisions.some((decision) => isUnsure(decision, escalation))
    ? { runtime: escalation.runtime }
    : { runtime, firstLeg };
}

/** A decision close enough to go either way (see `routingRuntime`). */
export function isUnsure(decision: Decision, gate: { margin: number; gap: number }): boolean {
  const best = decision.best;
  if (!best) return false;
  const runnerUp = best.runnerUp?.similarity;
  if (runnerUp !== undefined && best.similarity - runnerUp < gate.margin) return true;
  return decision.threshold !== null && Math.abs(best.similarity - decision.threshold) < gate.gap;
}
