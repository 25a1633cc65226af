export {
  DEFAULT_DATABASE_FILE,
  type OpenSqliteOptions,
  openSqlite,
  type SqliteStores,
} from './open-sqlite.js';
export type { SessionLockOptions } from './session-locks.js';
export { AUDIT_SCHEMA, SqliteAuditLog } from './sqlite-audit-log.js';
export { CALLBACK_SCHEMA, SqliteCallbackRequests } from './sqlite-callback-requests.js';
export { CANNED_RESPONSES_SCHEMA, SqliteCannedResponses } from './sqlite-canned-responses.js';
export { CHANNEL_INBOX_SCHEMA, SqliteChannelInbox } from './sqlite-channel-inbox.js';
export { CHANNEL_SCHEMA, SqliteChannelStore } from './sqlite-channel-store.js';
export {
  type SchemaMigrations,
  SqliteDatabase,
  type SqliteDatabaseOptions,
  type SynchronousMode,
} from './sqlite-database.js';
export {
  EMBEDDING_SCHEMA,
  SqliteEmbeddingCache,
  type SqliteEmbeddingCacheOptions,
} from './sqlite-embedding-cache.js';
export { CHUNK_BYTES, FILE_SCHEMA, SqliteFileStore } from './sqlite-file-store.js';
export { HANDOFF_OUTBOX_SCHEMA, SqliteHandoffOutbox } from './sqlite-handoff-outbox.js';
export { HANDOFF_QUEUE_SCHEMA, SqliteHandoffQueue } from './sqlite-handoff-queue.js';
export { OPERATOR_ROUTING_SCHEMA, SqliteOperatorRouting } from './sqlite-operator-routing.js';
export { OPERATOR_SESSION_SCHEMA, SqliteOperatorSessions } from './sqlite-operator-sessions.js';
export { SATISFACTION_SCHEMA, SqliteSatisfactionRatings } from './sqlite-satisfaction-ratings.js';
export {
  SESSION_SCHEMA,
  SqliteSessionStore,
  type SqliteSessionStoreOptions,
} from './sqlite-session-store.js';
export { SESSION_TOKEN_SCHEMA, SqliteSessionTokens } from './sqlite-session-tokens.js';
export { SOURCE_SCHEMA, SqliteSourceStore } from './sqlite-source-store.js';
export { SqliteVectorStore, VECTOR_SCHEMA } from './sqlite-vector-store.js';
export { SqliteVersionStore, VERSION_SCHEMA } from './sqlite-version-store.js';
export type { CheckpointOptions, CheckpointReport } from './wal-checkpointer.js';
