import { TreeAgentError } from '@treeagent/core';

/** The PostgreSQL adapter: an optional peer dependency of the CLI (package.json `peerDependenciesMeta`). */
export const POSTGRES_PACKAGE = '@treeagent/postgres';

/** True when `error` is Node's failure to find `name` itself (not a module that `name` imports). */
export function isMissingPackage(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === 'ERR_MODULE_NOT_FOUND' && typeof message === 'string' && message.includes(`package '${name}'`)
  );
}

/**
 * Imports `@treeagent/postgres` for a flag that needs it, by name at run time, so the CLI installs
 * without it. When it is not installed: an `INVALID_INPUT` error naming `flag` and the command that
 * installs it (then `alternative`, if given). Any other failure — an installed adapter that cannot
 * load — is rethrown as it is, not hidden behind the install hint.
 */
export async function importPostgresAdapter<T>(flag: string, alternative = ''): Promise<T> {
  try {
    return (await import(POSTGRES_PACKAGE)) as T;
  } catch (error) {
    if (!isMissingPackage(error, POSTGRES_PACKAGE)) throw error;
    throw new TreeAgentError(
      'INVALID_INPUT',
      `${flag} uses PostgreSQL through ${POSTGRES_PACKAGE}, an optional peer dependency of @treeagent/cli that is not installed. Install it beside the CLI: npm install ${POSTGRES_PACKAGE}${alternative ? ` (${alternative})` : ''}.`,
      { cause: error },
    );
  }
}
