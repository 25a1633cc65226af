/** One problem found in a tree definition: where, what, and how to fix it. */
export interface TreeProblem {
  /** Node the problem is about; absent for problems of the whole tree. */
  nodeId?: number;
  message: string;
  fix: string;
}

/** Formats a problem as one line: `node 12: <message> Fix: <fix>`. */
export function formatProblem(problem: TreeProblem): string {
  const where = problem.nodeId === undefined ? 'tree' : `node ${problem.nodeId}`;
  return `${where}: ${problem.message} Fix: ${problem.fix}`;
}
