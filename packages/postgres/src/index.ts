export { type FilterSql, type FilterSqlOptions, filterToSql } from './filter-to-sql.js';
export { type HnswOptions, PgVectorStore, type PgVectorStoreOptions } from './pg-vector-store.js';
export { PostgresAuditLog } from './postgres-audit-log.js';
export { PostgresFileStore, type PostgresFileStoreOptions } from './postgres-file-store.js';
export { PostgresOperatorSessions, type PostgresOperatorStoreOptions } from './postgres-operator-sessions.js';
export { PostgresSessionStore, type PostgresSessionStoreOptions } from './postgres-session-store.js';
export { PostgresSessionTokens, type PostgresSessionTokensOptions } from './postgres-session-tokens.js';
export type { Endpoint } from './sql.js';
