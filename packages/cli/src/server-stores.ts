import { join, resolve } from 'node:path';
import type { TreeAgentOptions } from '@treeagent/core';
import { TreeAgentError } from '@treeagent/core';
import type { VersionStore } from '@treeagent/core/adapter';
import type { ServeOptions } from '@treeagent/server';
import { DEFAULT_DATA_DIRECTORY, openDataDirectory } from './data-directory.js';
import { importPostgresAdapter } from './postgres-adapter.js';

/** Where `treeagent serve` keeps its state: the SQLite data directory, or PostgreSQL. */
export interface ServerStores {
  /** The agent's stores (sessions, vectors, uploads, embedding cache). */
  agentOptions: Pick<TreeAgentOptions, 'sessionStore' | 'vectorStore' | 'embeddingCache' | 'fileStore'>;
  /**
   * The server's: session tokens, the help desk (handoff queue and bus, presence and round robins,
   * canned responses, ratings, callback requests), operator logins and the audit log.
   */
  sessionTokens: NonNullable<ServeOptions['sessionTokens']>;
  handoff: NonNullable<ServeOptions['handoff']>;
  operatorStores: Pick<NonNullable<ServeOptions['operators']>, 'sessions' | 'auditLog'>;
  /** The knowledge sources of the Sources page (`/api/v1/sources`). */
  sources: NonNullable<ServeOptions['sources']>;
  /** The tree's versions and environments (`serve --env`, docs/versions.md). */
  versions: VersionStore;
  /** One line for the start-up message, without secrets. */
  description: string;
  close(): Promise<void>;
}

/** What this module uses of `@treeagent/postgres` (an optional peer dependency, imported by name). */
interface PostgresModule {
  PostgresSessionStore: new (options: { connection: string; schema?: string }) => unknown;
  PgVectorStore: new (options: { connection: string; schema?: string }) => unknown;
  PostgresFileStore: new (options: { connection: string; schema?: string }) => unknown;
  PostgresSessionTokens: new (options: { connection: string; schema?: string }) => unknown;
  PostgresOperatorSessions: new (options: { connection: string; schema?: string }) => unknown;
  PostgresAuditLog: new (options: { connection: string; schema?: string }) => unknown;
  PostgresHandoffQueue: new (options: { connection: string; schema?: string }) => unknown;
  PostgresSourceStore: new (options: { connection: string; schema?: string }) => unknown;
  PostgresVersionStore: new (options: { connection: string; schema?: string }) => VersionStore;
  PostgresOperatorRouting: new (options: { connection: string; schema?: string }) => unknown;
  PostgresCannedResponses: new (options: { connection: string; schema?: string }) => unknown;
  PostgresSatisfactionRatings: new (options: { connection: string; schema?: string }) => unknown;
  PostgresCallbackRequests: new (options: { connection: string; schema?: string }) => unknown;
  PostgresEventBus: new (options: { connection: string; channel?: string }) => { ready(): Promise<void> };
}

/**
 * Opens the stores of `treeagent serve`: with `databaseUrl` (`postgres://…`), every shared store in
 * PostgreSQL — sessions, vectors, uploads, tokens, operator logins, audit log, handoff queue, and the
 * LISTEN/NOTIFY bus between processes — so several processes can serve behind a load balancer; the
 * data directory then keeps only what is local to the machine (the embedding cache and fits).
 * Without it, everything in the data directory's SQLite file (one machine).
 */
export async function openServerStores(options: {
  data?: string;
  databaseUrl?: string;
  schema?: string;
}): Promise<ServerStores> {
  const data = openDataDirectory(options.data);
  if (!options.databaseUrl) {
    return {
      agentOptions: data.options,
      sessionTokens: data.sessionTokens,
      handoff: data.handoff,
      operatorStores: { sessions: data.operatorSessions, auditLog: data.auditLog },
      sources: sourcesOptions(data.sourceStore, options.data),
      versions: data.versionStore,
      description: `Sessions, uploads, vectors, embeddings, operator logins, the audit log and the help desk (queue, canned responses, ratings, callback requests) in ${data.file} (SQLite).`,
      close: () => data.close(),
    };
  }
  let url: URL;
  try {
    url = new URL(options.databaseUrl);
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error('not postgres');
  } catch {
    await data.close();
    throw new TreeAgentError(
      'INVALID_INPUT',
      '--database-url (or TREEAGENT_DATABASE_URL) must be a PostgreSQL URL: postgres://user:password@host:5432/database.',
    );
  }
  let pg: PostgresModule;
  try {
    pg = await importPostgresAdapter<PostgresModule>(
      '--database-url',
      'or leave --database-url out to keep everything in the SQLite data directory',
    );
  } catch (error) {
    await data.close();
    throw error;
  }
  const connection = options.databaseUrl;
  const scoped = { connection, ...(options.schema ? { schema: options.schema } : {}) };
  const sessionStore = new pg.PostgresSessionStore(scoped);
  const vectorStore = new pg.PgVectorStore(scoped);
  const fileStore = new pg.PostgresFileStore(scoped);
  const sessionTokens = new pg.PostgresSessionTokens(scoped);
  const sessions = new pg.PostgresOperatorSessions(scoped);
  const auditLog = new pg.PostgresAuditLog(scoped);
  const queue = new pg.PostgresHandoffQueue(scoped);
  const sourceStore = new pg.PostgresSourceStore(scoped);
  const versionStore = new pg.PostgresVersionStore(scoped);
  // The help desk: presence and round robins, canned responses, ratings, callback requests.
  const routing = new pg.PostgresOperatorRouting(scoped);
  const cannedResponses = new pg.PostgresCannedResponses(scoped);
  const satisfaction = new pg.PostgresSatisfactionRatings(scoped);
  const callbacks = new pg.PostgresCallbackRequests(scoped);
  const bus = new pg.PostgresEventBus({
    connection,
    ...(options.schema ? { channel: `treeagent_events_${options.schema}` } : {}),
  });
  const closeables = [
    sessionStore,
    vectorStore,
    fileStore,
    sessionTokens,
    sessions,
    auditLog,
    queue,
    sourceStore,
    versionStore,
    routing,
    cannedResponses,
    satisfaction,
    callbacks,
    bus,
  ];
  const closeAll = async () => {
    await Promise.allSettled(
      closeables.map((store) => (store as { close?: () => Promise<void> }).close?.() ?? Promise.resolve()),
    );
    await data.close();
  };
  try {
    await bus.ready();
  } catch (error) {
    await closeAll();
    throw new TreeAgentError(
      'INVALID_INPUT',
      `PostgreSQL at ${url.host}${url.pathname} cannot be reached (${(error as Error).message}). Check --database-url (host, port, database, user, password) and that the server is running.`,
      { cause: error },
    );
  }
  return {
    agentOptions: {
      sessionStore: sessionStore as TreeAgentOptions['sessionStore'],
      vectorStore: vectorStore as TreeAgentOptions['vectorStore'],
      fileStore: fileStore as TreeAgentOptions['fileStore'],
      // Embeddings are a cache of this machine: in the data directory.
      ...(data.options.embeddingCache ? { embeddingCache: data.options.embeddingCache } : {}),
    },
    sessionTokens: sessionTokens as ServerStores['sessionTokens'],
    handoff: {
      queue: queue as NonNullable<ServerStores['handoff']['queue']>,
      bus: bus as unknown as NonNullable<ServerStores['handoff']['bus']>,
      routing: routing as NonNullable<ServerStores['handoff']['routing']>,
      cannedResponses: cannedResponses as NonNullable<ServerStores['handoff']['cannedResponses']>,
      satisfaction: satisfaction as NonNullable<ServerStores['handoff']['satisfaction']>,
      callbacks: callbacks as NonNullable<ServerStores['handoff']['callbacks']>,
    },
    operatorStores: {
      sessions: sessions as ServerStores['operatorStores']['sessions'],
      auditLog: auditLog as ServerStores['operatorStores']['auditLog'],
    },
    sources: sourcesOptions(sourceStore as ServerStores['sources']['store'], options.data),
    versions: versionStore,
    description: `Sessions, uploads, vectors, operator logins, the audit log and the help desk (queue, canned responses, ratings, callback requests) in PostgreSQL at ${url.host}${url.pathname}${options.schema ? ` (schema ${options.schema})` : ''}; the embedding cache in ${data.file}.`,
    close: closeAll,
  };
}

/**
 * The server's knowledge sources: `store`, uploaded files under `<data>/sources/`, and the internal
 * hosts the crawler may fetch from `TREEAGENT_SOURCES_ALLOW_HOSTS` (comma-separated; none by default).
 */
export function sourcesOptions(
  store: ServerStores['sources']['store'],
  data?: string,
): ServerStores['sources'] {
  const allow = (process.env.TREEAGENT_SOURCES_ALLOW_HOSTS ?? '')
    .split(',')
    .map((host) => host.trim())
    .filter(Boolean);
  return {
    store,
    fileDirectory: join(resolve(data ?? DEFAULT_DATA_DIRECTORY), 'sources'),
    ...(allow.length ? { allowPrivateHosts: allow } : {}),
  };
}
