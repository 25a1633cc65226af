import { join } from 'node:path';
import { SqliteAuditLog } from './sqlite-audit-log.js';
import { SqliteCallbackRequests } from './sqlite-callback-requests.js';
import { SqliteCannedResponses } from './sqlite-canned-responses.js';
import { SqliteDatabase } from './sqlite-database.js';
import { SqliteEmbeddingCache } from './sqlite-embedding-cache.js';
import { SqliteFileStore } from './sqlite-file-store.js';
import { SqliteHandoffQueue } from './sqlite-handoff-queue.js';
import { SqliteOperatorRouting } from './sqlite-operator-routing.js';
import { SqliteOperatorSessions } from './sqlite-operator-sessions.js';
import { SqliteSatisfactionRatings } from './sqlite-satisfaction-ratings.js';
import { SqliteSessionStore, type SqliteSessionStoreOptions } from './sqlite-session-store.js';
import { SqliteSessionTokens } from './sqlite-session-tokens.js';
import { SqliteSourceStore } from './sqlite-source-store.js';
import { SqliteVectorStore } from './sqlite-vector-store.js';
import { SqliteVersionStore } from './sqlite-version-store.js';

/** The default database file name in the data directory. */
export const DEFAULT_DATABASE_FILE = 'treeagent.db';

export interface OpenSqliteOptions extends SqliteSessionStoreOptions {
  /** File name inside the directory. Default `treeagent.db`. */
  fileName?: string;
}

/** The stores of one SQLite file, sharing one connection. */
export interface SqliteStores {
  /** Absolute path of the database file. */
  file: string;
  database: SqliteDatabase;
  sessionStore: SqliteSessionStore;
  vectorStore: SqliteVectorStore;
  embeddingCache: SqliteEmbeddingCache;
  /** The server's session tokens (`serve({ sessionTokens })`), so sessions outlive a restart. */
  sessionTokens: SqliteSessionTokens;
  /** The conversation's files (uploads, files made in code), durable beside the sessions. */
  fileStore: SqliteFileStore;
  /** The server's operator logins (`serve({ operators: { sessions } })`), so they outlive a restart. */
  operatorSessions: SqliteOperatorSessions;
  /** The audit log of operator actions (`serve({ operators: { auditLog } })`). */
  auditLog: SqliteAuditLog;
  /** The queue of handed-off sessions (`serve({ handoff: { queue } })`), so the console finds them after a restart. */
  handoffQueue: SqliteHandoffQueue;
  /** Operators' presence and the teams' round robins (`serve({ handoff: { routing } })`). */
  operatorRouting: SqliteOperatorRouting;
  /** The help desk's canned responses (`serve({ handoff: { cannedResponses } })`). */
  cannedResponses: SqliteCannedResponses;
  /** The users' ratings of conversations with people (`serve({ handoff: { satisfaction } })`). */
  satisfaction: SqliteSatisfactionRatings;
  /** Users' callback requests left out of hours (`serve({ handoff: { callbacks } })`). */
  callbacks: SqliteCallbackRequests;
  /** The knowledge sources (websites, sitemaps, files) and their pages, refreshed into the vector store. */
  sourceStore: SqliteSourceStore;
  /** The tree's versions and environments (docs/versions.md). */
  versionStore: SqliteVersionStore;
  /** Closes the stores and the file. */
  close(): Promise<void>;
}

/**
 * Opens (creating it when missing) `<directory>/treeagent.db` and returns a session store, a vector
 * store, an embedding cache, a file store and the server's session tokens on it: one file in a data directory,
 * nothing to configure.
 *
 * @example
 * const { sessionStore, vectorStore, embeddingCache, close } = openSqlite('.data');
 * const agent = new TreeAgent({ tree, sessionStore, vectorStore, embeddingCache });
 */
export function openSqlite(directory: string, options: OpenSqliteOptions = {}): SqliteStores {
  const database = new SqliteDatabase(join(directory, options.fileName ?? DEFAULT_DATABASE_FILE), options);
  try {
    const sessionStore = new SqliteSessionStore(database, options);
    const vectorStore = new SqliteVectorStore(database);
    const embeddingCache = new SqliteEmbeddingCache(database);
    const sessionTokens = new SqliteSessionTokens(database);
    const fileStore = new SqliteFileStore(database);
    const operatorSessions = new SqliteOperatorSessions(database);
    const auditLog = new SqliteAuditLog(database);
    const handoffQueue = new SqliteHandoffQueue(database);
    const operatorRouting = new SqliteOperatorRouting(database);
    const cannedResponses = new SqliteCannedResponses(database);
    const satisfaction = new SqliteSatisfactionRatings(database);
    const callbacks = new SqliteCallbackRequests(database);
    const sourceStore = new SqliteSourceStore(database);
    const versionStore = new SqliteVersionStore(database);
    return {
      file: database.file,
      database,
      sessionStore,
      vectorStore,
      embeddingCache,
      sessionTokens,
      fileStore,
      operatorSessions,
      auditLog,
      handoffQueue,
      operatorRouting,
      cannedResponses,
      satisfaction,
      callbacks,
      sourceStore,
      versionStore,
      async close() {
        await Promise.all([
          sessionStore.close(),
          vectorStore.close(),
          embeddingCache.close(),
          sessionTokens.close(),
          fileStore.close(),
          operatorSessions.close(),
          auditLog.close(),
          handoffQueue.close(),
          operatorRouting.close(),
          cannedResponses.close(),
          satisfaction.close(),
          callbacks.close(),
          sourceStore.close(),
          versionStore.close(),
        ]);
        database.close();
      },
    };
  } catch (error) {
    database.close();
    throw error;
  }
}
