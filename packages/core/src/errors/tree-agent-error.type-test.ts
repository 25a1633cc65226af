import { TreeAgentError } from './tree-agent-error.js';

/**
 * Compile-time checks of the typed error details (never run): `tsc` fails if a line marked
 * `@ts-expect-error` stops being an error, or if narrowing by code stops typing the details.
 */
export function typeTests(error: unknown): void {
  if (TreeAgentError.hasCode(error, 'NO_MATCH')) {
    const agentId: number = error.details.agentId;
    void agentId;
  }
  if (TreeAgentError.hasCode(error, 'UNKNOWN_LINK')) {
    const known: string[] = error.details.known;
    void known;
  }
  if (TreeAgentError.isInstance(error)) {
    // Not narrowed by code: every field reads as unknown.
    // @ts-expect-error agentId is unknown until the code is checked
    const agentId: number = error.details.agentId;
    void agentId;
  }
  // @ts-expect-error NO_MATCH details carry the agent id as a number
  new TreeAgentError('NO_MATCH', 'nothing fits', { details: { agentId: 'two' } });
  // @ts-expect-error MODEL_NOT_CONFIGURED details name the model
  new TreeAgentError('MODEL_NOT_CONFIGURED', 'no model', { details: { modelName: 'x' } });
}
