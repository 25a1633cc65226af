import type { EnvironmentChange } from './version-store.js';

/**
 * The version a rollback of an environment returns to, from its history (oldest first): the
 * history is a stack where a publish pushes its version and a rollback pops one, so a rollback
 * returns to the version published before the current one, and a second rollback goes one further
 * back. `null` when there is nothing to return to (one publish or none).
 */
export function rollbackTarget(history: readonly EnvironmentChange[]): string | null {
  const stack: string[] = [];
  for (const change of history) {
    if (change.action === 'publish') stack.push(change.versionId);
    else stack.pop();
  }
  return stack.length >= 2 ? stack[stack.length - 2]! : null;
}

/** The routing figures of the last publish still in force (not rolled back), for the recall gate. */
export function publishedFigures(history: readonly EnvironmentChange[]): EnvironmentChange['figures'] {
  const stack: EnvironmentChange[] = [];
  for (const change of history) {
    if (change.action === 'publish') stack.push(change);
    else stack.pop();
  }
  return stack.at(-1)?.figures ?? null;
}
