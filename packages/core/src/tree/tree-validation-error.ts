import { TreeAgentError } from '../errors/tree-agent-error.js';
import { formatProblem, type TreeProblem } from './tree-problem.js';

/** Thrown by `defineTree` with every problem of the definition at once. */
export class TreeValidationError extends TreeAgentError {
  readonly problems: readonly TreeProblem[];

  constructor(problems: readonly TreeProblem[]) {
    const lines = problems.map((problem) => `  - ${formatProblem(problem)}`).join('\n');
    super(
      'TREE_VALIDATION',
      `The tree definition has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${lines}`,
      {
        details: { problems },
      },
    );
    this.name = 'TreeValidationError';
    this.problems = problems;
  }
}
