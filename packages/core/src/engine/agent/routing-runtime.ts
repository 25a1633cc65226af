import type { AgentEvent } from '../../protocol/events.js';
import type { AgentRuntime } from '../runtime/runtime.js';

type Decision = Extract<AgentEvent, { type: 'explore-decision' }>;

/**
 * Routes `text` in the runtime's space without running anything, and returns its decisions: the
 * first leg of a cascade (`routeIn` from route.ts, passed in to keep this file free of it).
 */
export type DryRoute = (runtime: AgentRuntime, text: string) => Promise<{ decisions: Decision[] }>;

/**
 * The runtime a message routes on. Without a cascade, `runtime` itself. With one
 * (`runtime.escalation`, from a `FittedSpace.escalation`), the message is first routed in the
 * runtime's own (cheap) space; when a decision on its way is unsure — its best child leads the
 * runner-up by less than `margin`, or its best similarity is within `gap` of the node's threshold —
 * the runtime of the second space, where the turn embeds the message again and routes with that
 * space's thresholds (docs/routing.md, "A cascade").
 */
export async function routingRuntime(
  runtime: AgentRuntime,
  text: string,
  dryRoute: DryRoute,
): Promise<AgentRuntime> {
  const escalation = runtime.escalation;
  if (!escalation || !text.trim()) return runtime;
  const { decisions } = await dryRoute(runtime, text);
  return decisions.some((decision) => isUnsure(decision, escalation)) ? escalation.runtime : runtime;
}

/** A decision close enough to go either way (see `routingRuntime`). */
export function isUnsure(decision: Decision, gate: { margin: number; gap: number }): boolean {
  const best = decision.best;
  if (!best) return false;
  const runnerUp = best.runnerUp?.similarity;
  if (runnerUp !== undefined && best.similarity - runnerUp < gate.margin) return true;
  return decision.threshold !== null && Math.abs(best.similarity - decision.threshold) < gate.gap;
}
