import { resolve } from 'node:path';
import type { TreeAgentOptions } from '@treeagent/core';
import { openSqlite, type SqliteStores } from '@treeagent/sqlite';

/** Default data directory of the CLI (and the server): SQLite sessions, files, vectors and embeddings in one file. */
export const DEFAULT_DATA_DIRECTORY = '.treeagent';

/** Opens the SQLite file of a data directory as the agent's stores. */
export function openDataDirectory(directory = DEFAULT_DATA_DIRECTORY): {
  options: Pick<TreeAgentOptions, 'sessionStore' | 'vectorStore' | 'embeddingCache' | 'fileStore'>;
  /** The server's session tokens in the same file: sessions outlive a restart of `treeagent dev`. */
  sessionTokens: SqliteStores['sessionTokens'];
  /** Operator logins and the audit log in the same file (`treeagent dev --operators`). */
  operatorSessions: SqliteStores['operatorSessions'];
  auditLog: SqliteStores['auditLog'];
  /** The queue of handed-off sessions in the same file. */
  handoffQueue: SqliteStores['handoffQueue'];
  /** Callback requests left out of hours and the users' ratings (CSAT) in the same file. */
  callbacks: SqliteStores['callbacks'];
  satisfaction: SqliteStores['satisfaction'];
  /** Operators' presence and the teams' round robins, and the canned responses, in the same file. */
  operatorRouting: SqliteStores['operatorRouting'];
  cannedResponses: SqliteStores['cannedResponses'];
  /**
   * The help desk's stores as the server's `handoff` option: the queue, presence and round robins,
   * canned responses, ratings and callback requests, all in the same file (they survive a restart).
   */
  handoff: {
    queue: SqliteStores['handoffQueue'];
    routing: SqliteStores['operatorRouting'];
    cannedResponses: SqliteStores['cannedResponses'];
    satisfaction: SqliteStores['satisfaction'];
    callbacks: SqliteStores['callbacks'];
  };
  /** The knowledge sources (`treeagent sources`) in the same file. */
  sourceStore: SqliteStores['sourceStore'];
  /** The tree's versions and environments (docs/versions.md) in the same file. */
  versionStore: SqliteStores['versionStore'];
  file: string;
  close(): Promise<void>;
} {
  const sqlite = openSqlite(resolve(directory));
  return {
    options: {
      sessionStore: sqlite.sessionStore,
      vectorStore: sqlite.vectorStore,
      embeddingCache: sqlite.embeddingCache,
      // Uploads in the same file: durable, streamed to disk, deleted with their session.
      fileStore: sqlite.fileStore,
    },
    sessionTokens: sqlite.sessionTokens,
    operatorSessions: sqlite.operatorSessions,
    auditLog: sqlite.auditLog,
    handoffQueue: sqlite.handoffQueue,
    callbacks: sqlite.callbacks,
    satisfaction: sqlite.satisfaction,
    operatorRouting: sqlite.operatorRouting,
    cannedResponses: sqlite.cannedResponses,
    handoff: {
      queue: sqlite.handoffQueue,
      routing: sqlite.operatorRouting,
      cannedResponses: sqlite.cannedResponses,
      satisfaction: sqlite.satisfaction,
      callbacks: sqlite.callbacks,
    },
    sourceStore: sqlite.sourceStore,
    versionStore: sqlite.versionStore,
    file: sqlite.file,
    close: async () => {
      await sqlite.close();
    },
  };
}
