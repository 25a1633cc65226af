import { TreeAgentError, type TreeAgentErrorCode } from '@treeagent/core';
import pg from 'pg';

/** PostgreSQL truncates identifiers longer than this many bytes; longer names could collide. */
const MAX_IDENTIFIER_BYTES = 63;

/** Quotes an SQL identifier (schema, table, index name), so any name is safe in SQL text. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Checks a configured identifier (a schema or table name) and returns it quoted. */
export function identifier(name: string, what: string, code: TreeAgentErrorCode): string {
  if (typeof name !== 'string' || name.length === 0 || name.includes('\0')) {
    throw new TreeAgentError(
      code,
      `The ${what} name must be a non-empty string, got ${JSON.stringify(name)}.`,
    );
  }
  if (Buffer.byteLength(name) > MAX_IDENTIFIER_BYTES) {
    throw new TreeAgentError(
      code,
      `The ${what} name "${name}" is longer than PostgreSQL's ${MAX_IDENTIFIER_BYTES}-byte identifier limit.`,
    );
  }
  return quoteIdent(name);
}

/**
 * The checked, quoted, schema-qualified name of one of the session-side tables
 * (`"<schema>"."<prefix><name>"`), with `what` naming the table in the error.
 */
export function sessionTable(schema: string, table: string, what: string): string {
  return `${identifier(schema, 'schema', 'SESSION_STORE')}.${identifier(table, what, 'SESSION_STORE')}`;
}

/** Where a pool connects, for error messages (never the password). */
export interface Endpoint {
  host: string;
  port: number;
  database: string | undefined;
}

export function endpointOf(config: pg.PoolConfig): Endpoint {
  let host = config.host;
  let port = config.port;
  let database = config.database;
  if (config.connectionString) {
    try {
      const url = new URL(config.connectionString);
      host ??= decodeURIComponent(url.hostname) || undefined;
      port ??= url.port ? Number(url.port) : undefined;
      database ??= decodeURIComponent(url.pathname.replace(/^\//, '')) || undefined;
    } catch {
      // Not a URL (a key=value string): fall back to the defaults below.
    }
  }
  return {
    host: host ?? process.env.PGHOST ?? 'localhost',
    port: port ?? (Number(process.env.PGPORT) || 5432),
    database: database ?? process.env.PGDATABASE,
  };
}

/** Connection-level failures: the server could not be reached or dropped the connection. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'EPIPE',
]);

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // Node reports a refused connection to a name with several addresses as an AggregateError.
  const inner = (error as { errors?: unknown[] }).errors;
  return Array.isArray(inner) ? errorCode(inner[0]) : undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  const inner = (error as { errors?: unknown[] } | null)?.errors;
  if (Array.isArray(inner) && inner.length > 0) return messageOf(inner[0]);
  return String(error);
}

/**
 * Turns a pg (or socket) error into a `TreeAgentError` with `code` and a message that says what
 * happened and what to do. `TreeAgentError`s pass through unchanged.
 */
export function storeError(
  error: unknown,
  code: TreeAgentErrorCode,
  operation: string,
  endpoint: Endpoint,
): TreeAgentError {
  if (TreeAgentError.isInstance(error)) return error;
  const pgCode = errorCode(error);
  const where = `PostgreSQL at ${endpoint.host}:${endpoint.port}`;
  const db = endpoint.database ? ` database "${endpoint.database}"` : ' the database';
  let message: string;
  if (pgCode && UNREACHABLE.has(pgCode)) {
    message = `${where} is unreachable (${pgCode}) while trying to ${operation}: is the server running and accepting TCP connections there?`;
  } else if (/timeout exceeded when trying to connect|Connection terminated/i.test(messageOf(error))) {
    message = `${where} is unreachable while trying to ${operation}: ${messageOf(error)}.`;
  } else if (pgCode === '3D000') {
    message = `${where} has no${db} (${messageOf(error)}); create it first.`;
  } else if (pgCode === '28P01' || pgCode === '28000') {
    message = `${where} refused the credentials while trying to ${operation}: ${messageOf(error)}.`;
  } else if (pgCode === '57P01' || pgCode === '57P02' || pgCode === '57P03') {
    message = `${where} is shutting down or starting up (${pgCode}) while trying to ${operation}: ${messageOf(error)}.`;
  } else {
    message = `${where} failed to ${operation}: ${messageOf(error)}${pgCode ? ` (SQLSTATE ${pgCode})` : ''}.`;
  }
  return new TreeAgentError(code, message, {
    cause: error,
    details: { operation, host: endpoint.host, port: endpoint.port, ...(pgCode ? { pgCode } : {}) },
  });
}

/** A pool config from a URL or a config, with a connection timeout so an unreachable host fails instead of hanging. */
export function poolConfig(connection: string | pg.PoolConfig, extra: pg.PoolConfig = {}): pg.PoolConfig {
  const base = typeof connection === 'string' ? { connectionString: connection } : { ...connection };
  return { connectionTimeoutMillis: 10_000, ...base, ...extra };
}

const ignore = () => {};

/**
 * A pool whose connection errors (a server restart, a network cut) never crash the process: pg
 * emits 'error' on a client whose connection drops, and an unhandled 'error' event would throw.
 * The query in flight fails instead; pg-pool discards broken idle clients, and the store discards
 * a broken checked-out one when it releases it.
 */
export function createPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on('error', ignore);
  pool.on('connect', (client) => client.on('error', ignore));
  return pool;
}

/** The pool of a store: given (left open by the store), or created from `connection` (ended by it). */
export interface StorePool {
  pool: pg.Pool;
  ownsPool: boolean;
  config: pg.PoolConfig;
  endpoint: Endpoint;
}

/** Opens the pool of a store from its `connection` or `pool` option; `what` names the store in the error. */
export function storePool(
  options: { connection?: string | pg.PoolConfig; pool?: pg.Pool },
  code: TreeAgentErrorCode,
  what: string,
): StorePool {
  if (!options.pool && options.connection === undefined) {
    throw new TreeAgentError(
      code,
      `${what} needs \`connection\` (a postgres:// URL or a pg PoolConfig) or \`pool\`.`,
    );
  }
  const config = options.pool ? { ...options.pool.options } : poolConfig(options.connection!);
  return {
    pool: options.pool ?? createPool(config),
    ownsPool: !options.pool,
    config,
    endpoint: endpointOf(config),
  };
}

/**
 * `init` run once, on first call, shared by concurrent callers; a failed run is forgotten, so the
 * next call tries again (a database that was down at first use).
 */
export function retriedOnce(init: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  return () => {
    running ??= init().catch((error: unknown) => {
      running = null;
      throw error;
    });
    return running;
  };
}

/** Runs `body` in a transaction on one pooled client; rolls back on any error. */
export async function transaction<T>(pool: pg.Pool, body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A pool passed in by the application may not guard its clients (see createPool).
  client.on('error', ignore);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await body(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch (rollbackError) {
      broken = rollbackError as Error;
    }
    throw error;
  } finally {
    client.off('error', ignore);
    client.release(broken);
  }
}

/**
 * `VACUUM` of `tables` after a deletion (one user's data on request, docs/privacy.md): the deleted
 * rows' space is marked reusable and their index entries go, so new rows overwrite it; it does not
 * overwrite the bytes at once (they stay in the files until reused), nor touch the WAL, replicas or
 * backups. Runs outside a transaction (VACUUM cannot run in one).
 */
export async function vacuum(pool: pg.Pool, tables: readonly string[]): Promise<void> {
  await pool.query(`VACUUM ${tables.join(', ')}`);
}
