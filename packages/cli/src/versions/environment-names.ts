import { TreeAgentError } from '@treeagent/core';

/** The environments a tree has when `TREEAGENT_ENVIRONMENTS` does not name others. */
export const DEFAULT_ENVIRONMENTS: readonly string[] = ['draft', 'staging', 'production'];

/** The environment names: `TREEAGENT_ENVIRONMENTS` (comma-separated), else draft, staging, production. */
export function environmentNames(): string[] {
  const configured = (process.env.TREEAGENT_ENVIRONMENTS ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return configured.length ? configured : [...DEFAULT_ENVIRONMENTS];
}

/** `name` when it is an environment; otherwise an `INVALID_INPUT` error listing them and how to add one. */
export function checkEnvironment(name: string): string {
  const names = environmentNames();
  if (!names.includes(name))
    throw new TreeAgentError(
      'INVALID_INPUT',
      `There is no environment "${name}": the environments are ${names.join(', ')}. Use one of them, or name yours in TREEAGENT_ENVIRONMENTS (comma-separated, e.g. TREEAGENT_ENVIRONMENTS=draft,qa,production).`,
    );
  return name;
}
