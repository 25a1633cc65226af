import pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  PgVectorStore,
  PostgresAuditLog,
  PostgresFileStore,
  PostgresHandoffQueue,
  PostgresOperatorSessions,
  PostgresSessionStore,
  PostgresSessionTokens,
} from './index.js';
import { requireDatabase, TEST_DATABASE_URL, testSchema } from './test-support/database.js';

/**
 * Several servers started at the same moment on a database they have never used: each one's stores
 * (each server with its own pool, as in separate processes) create the same schema, tables, indexes and
 * columns at once. PostgreSQL does not make `CREATE … IF NOT EXISTS` safe against a concurrent
 * creator (the loser fails with a unique violation on pg_namespace / pg_type / pg_class), and a
 * store that gave up on its migration because "the table exists now" could run its first query
 * before the other process had added the table's later columns. Every first call must succeed.
 */

const SERVERS = 5;
const ROUNDS = 10;
/** Connections of each server's pool: one per store's first call. */
const CONNECTIONS = 8;

/** One server: its stores on one pool of its own, connected before the race starts (so they collide). */
async function server(schema: string, index: number) {
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: CONNECTIONS });
  const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => pool.connect()));
  for (const client of clients) client.release();
  const sessionStore = new PostgresSessionStore({ pool, schema });
  const stores = {
    sessionStore,
    tokens: new PostgresSessionTokens({ pool, schema }),
    files: new PostgresFileStore({ pool, schema }),
    queue: new PostgresHandoffQueue({ pool, schema }),
    audit: new PostgresAuditLog({ pool, schema }),
    operators: new PostgresOperatorSessions({ pool, schema }),
    vectors: new PgVectorStore({ pool, schema, dimensions: 3 }),
  };
  /** Each store's first use, all at once, as a server's first requests would make them. */
  const firstCalls = () =>
    Promise.all([
      sessionStore.load(`session-${index}`),
      sessionStore.handoffOutbox().counts(),
      stores.tokens.save(`session-${index}`, 'a-token-hash', `user-${index}`),
      stores.files.put({ name: 'a.txt', mimeType: 'text/plain', data: Uint8Array.of(1), origin: 'chat' }),
      stores.queue.list(),
      stores.audit.list(),
      stores.operators.find('a-token-hash'),
      stores.vectors.ids('chunks'),
    ]);
  const close = async () => {
    await Promise.all(Object.values(stores).map((store) => store.close()));
    await pool.end();
  };
  return { stores, firstCalls, close };
}

beforeEach(requireDatabase);

describe('several servers starting at once on a new database', () => {
  it(`create every table once and answer every first call (${SERVERS} servers, ${ROUNDS} fresh schemas)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { schema, drop } = testSchema('start');
      const servers = await Promise.all(Array.from({ length: SERVERS }, (_, index) => server(schema, index)));
      try {
        const results = await Promise.allSettled(servers.map((each) => each.firstCalls()));
        const failures = results.flatMap((result) =>
          result.status === 'rejected' ? [String((result.reason as Error).message)] : [],
        );
        expect(failures, `round ${round}`).toEqual([]);
        // What each server wrote is there for the others (the late columns included).
        expect(await servers[0]!.stores.tokens.userSessions(`user-${SERVERS - 1}`)).toEqual([
          `session-${SERVERS - 1}`,
        ]);
      } finally {
        await Promise.all(servers.map((each) => each.close()));
        await drop();
      }
    }
  }, 60_000);
});
