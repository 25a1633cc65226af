import type { StepContext } from './step-context.js';
import type { TurnInput } from './turn-input.js';

/**
 * A step reads its turn and returns what it produced; it cannot change the turn (docs/architecture.md,
 * "One user message through the code"). Each marked line must stay a type error: `tsc` fails if one
 * compiles.
 */
export function stepsCannotChangeTheTurn(step: StepContext, input: TurnInput): void {
  // @ts-expect-error a step cannot count a failure: it returns its climbs, the step loop applies them (Turn.climbFrom)
  step.context.incrementFailCounter();
  // @ts-expect-error a step cannot move context.node: Turn.call sets it around each callback
  step.context.node = { id: 1, type: 'emit', name: undefined };
  // @ts-expect-error a step cannot add retrieved chunks: it returns them (ExecuteResult.retrieved, Turn.applyExecution)
  step.context.retrieved.set(1, []);
  // @ts-expect-error the agent builds a redacted copy of the input: nothing reassigns its message
  input.message = 'changed';
}
