import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { EnvironmentExperiment, VersionStore } from './version-store.js';

/** Who promotes which variant of an environment's experiment, and why. */
export interface PromoteRequest {
  tree: string;
  environment: string;
  versionId: string;
  /** `cli`, or `admin:<id>` from the browser. */
  author: string;
  message: string;
  at?: Date;
}

/**
 * Promotes the winner of an experiment in one action (docs/versions.md): publishes the variant to
 * the environment (no gate: it served during the experiment) and ends the experiment. What
 * `treeagent experiment --promote` and `POST /api/v1/versions/experiments/:environment/promote` do.
 * Refuses (`INVALID_INPUT`, changing nothing) an empty message or a version that is not a variant
 * of the experiment running there. Resolves to the experiment it ended.
 */
export async function promoteVariant(
  store: VersionStore,
  request: PromoteRequest,
): Promise<EnvironmentExperiment> {
  const { tree, environment, versionId } = request;
  const message = request.message.trim();
  if (!message) throw new TreeAgentError('INVALID_INPUT', 'Say why you promote it: -m "won the experiment".');
  const running = (await store.getEnvironment(tree, environment))?.experiment;
  if (!running?.variants.some((variant) => variant.versionId === versionId))
    throw new TreeAgentError(
      'INVALID_INPUT',
      `Version ${versionId} is not a variant of an experiment running on ${environment}${running ? ` (its variants: ${running.variants.map((variant) => variant.versionId).join(', ')})` : ' (none runs)'}.`,
    );
  await store.moveEnvironment(tree, {
    environment,
    versionId,
    action: 'publish',
    author: request.author,
    message,
    at: request.at ?? new Date(),
    figures: null,
  });
  await store.setExperiment(tree, environment, null);
  return running;
}
