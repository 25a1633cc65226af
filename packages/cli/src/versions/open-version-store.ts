import { resolve } from 'node:path';
import { TreeAgentError } from '@treeagent/core';
import type { VersionStore } from '@treeagent/core/adapter';
import { openSqlite } from '@treeagent/sqlite';
import { DEFAULT_DATA_DIRECTORY } from '../data-directory.js';
import { importPostgresAdapter } from '../postgres-adapter.js';

/** Where the CLI's version commands read and write versions: the data directory, or PostgreSQL. */
export interface VersionStoreOptions {
  data?: string;
  databaseUrl?: string;
  schema?: string;
}

/** An open version store and how to close it. */
export interface OpenVersionStore {
  store: VersionStore;
  /** Where it is, for messages (no password). */
  where: string;
  close(): Promise<void>;
}

/**
 * Opens the version store `treeagent serve` uses with the same flags: PostgreSQL with
 * `databaseUrl` (`@treeagent/postgres` must be installed), else the data directory's SQLite file.
 */
export async function openVersionStore(options: VersionStoreOptions): Promise<OpenVersionStore> {
  const databaseUrl = options.databaseUrl ?? process.env.TREEAGENT_DATABASE_URL;
  if (!databaseUrl) {
    const sqlite = openSqlite(resolve(options.data ?? DEFAULT_DATA_DIRECTORY));
    return { store: sqlite.versionStore, where: sqlite.file, close: () => sqlite.close() };
  }
  let url: URL;
  try {
    url = new URL(databaseUrl);
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error('not postgres');
  } catch {
    throw new TreeAgentError(
      'INVALID_INPUT',
      '--database-url (or TREEAGENT_DATABASE_URL) must be a PostgreSQL URL: postgres://user:password@host:5432/database.',
    );
  }
  const pg = await importPostgresAdapter<{
    PostgresVersionStore: new (options: {
      connection: string;
      schema?: string;
    }) => VersionStore & {
      close(): Promise<void>;
    };
  }>('--database-url', 'or leave --database-url out to keep the versions in the SQLite data directory');
  const store = new pg.PostgresVersionStore({
    connection: databaseUrl,
    ...(options.schema ? { schema: options.schema } : {}),
  });
  return {
    store,
    where: `PostgreSQL at ${url.host}${url.pathname}${options.schema ? ` (schema ${options.schema})` : ''}`,
    close: () => store.close(),
  };
}
