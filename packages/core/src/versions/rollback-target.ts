import type { EnvironmentChange } from './version-store.js';

/**
 * The publishes in force in an environment, oldest first, from its history (oldest first): the
 * history is a stack where a publish pushes its version and a rollback pops the current version —
 * every copy of it on top, so two identical publishes (a double click) are undone by one rollback.
 * A rollback recorded to the version it left (as such a double publish once caused) leaves that
 * version in force, as the environment served it.
 */
function publishesInForce(history: readonly EnvironmentChange[]): EnvironmentChange[] {
  const stack: EnvironmentChange[] = [];
  for (const change of history) {
    if (change.action === 'publish') {
      stack.push(change);
      continue;
    }
    const left = stack.pop()?.versionId;
    while (stack.length && stack.at(-1)!.versionId === left) stack.pop();
    if (stack.at(-1)?.versionId !== change.versionId) stack.push(change);
  }
  return stack;
}

/**
 * The version a rollback of an environment returns to, from its history (oldest first): the
 * version published before the current one (skipping repeated publishes of the current version),
 * and a second rollback goes one further back. `null` when there is nothing to return to.
 */
export function rollbackTarget(history: readonly EnvironmentChange[]): string | null {
  const stack = publishesInForce(history);
  const current = stack.at(-1)?.versionId;
  for (let index = stack.length - 2; index >= 0; index--)
    if (stack[index]!.versionId !== current) return stack[index]!.versionId;
  return null;
}

/**
 * The routing figures of the last publish still in force (not rolled back) that has figures, for the
 * recall gate: a promoted experiment variant (published without a gate, no figures) is compared
 * against the figures measured before it rather than against nothing.
 */
export function publishedFigures(history: readonly EnvironmentChange[]): EnvironmentChange['figures'] {
  const stack = publishesInForce(history);
  for (let index = stack.length - 1; index >= 0; index--)
    if (stack[index]!.figures) return stack[index]!.figures;
  return null;
}
