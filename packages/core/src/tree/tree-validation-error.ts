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

  /**
   * True only for a tree validation error (code `TREE_VALIDATION` with its problem list), also from
   * another copy of the package. Without this override the inherited guard would accept any Tree
   * Agent error, and code that lists a tree's problems would treat, say, a module that failed to
   * load as a list of problems.
   */
  static override isInstance(error: unknown): error is TreeValidationError {
    return (
      TreeAgentError.hasCode(error, 'TREE_VALIDATION') &&
      Array.isArray((error as { problems?: unknown }).problems)
    );
  }
}
