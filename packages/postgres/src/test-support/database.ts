import pg from 'pg';

/** The test server: `TREEAGENT_TEST_DATABASE_URL`, or the cluster `scripts/setup-postgres.sh` starts. */
export const TEST_DATABASE_URL =
  process.env.TREEAGENT_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:54329/treeagent_test';

let reachable: Promise<void> | undefined;

/** The URL without its password, for messages. */
export function redactedUrl(url = TEST_DATABASE_URL): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * Fails (never skips) with a message saying what to run when the test server is unreachable or
 * lacks pgvector. Checked once per test file.
 */
export function requireDatabase(): Promise<void> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 5_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      const { rows } = await client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
      if (rows.length === 0) throw new Error('the server has no pgvector extension');
    } catch (error) {
      const code = (error as { code?: string }).code;
      const reason = (error as Error).message || code || String(error);
      throw new Error(
        `The PostgreSQL test database ${redactedUrl()} is not usable (${reason}): run scripts/setup-postgres.sh (as root) first, or set TREEAGENT_TEST_DATABASE_URL to a PostgreSQL server with pgvector.`,
      );
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return reachable;
}

let counter = 0;

/** A schema name of its own for one test (so test files can run in parallel), and how to drop it. */
export function testSchema(label: string): { schema: string; drop: () => Promise<void> } {
  counter += 1;
  const random = Math.random().toString(36).slice(2, 8);
  const schema =
    `t_${label.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`.slice(0, 30) +
    `_${process.pid}_${counter}_${random}`;
  return { schema, drop: () => dropSchema(schema) };
}

/**
 * A store opened by `open` in a schema of its own (`testSchema(label)`), with `dispose`: close the
 * store, then drop the schema. A conformance factory returns it; a test pushes `dispose` to its
 * cleanups.
 */
export function storeInTestSchema<Store extends { close(): Promise<void> }>(
  label: string,
  open: (schema: string) => Store,
): { store: Store; schema: string; dispose: () => Promise<void> } {
  const { schema, drop } = testSchema(label);
  const store = open(schema);
  return {
    store,
    schema,
    dispose: async () => {
      await store.close();
      await drop();
    },
  };
}

/**
 * Instances on one fresh schema (`testSchema(label)`), each like another process: `open` makes one
 * more with `make`; `dispose` closes them all, then drops the schema. For conformance factories
 * with a `reopen`.
 */
export async function onSchema<T extends { close(): Promise<void> }>(
  label: string,
  make: (schema: string) => T,
) {
  await requireDatabase();
  const { schema, drop } = testSchema(label);
  const opened: T[] = [];
  const open = () => {
    const instance = make(schema);
    opened.push(instance);
    return instance;
  };
  const dispose = async () => {
    for (const instance of opened) await instance.close();
    await drop();
  };
  return { open, dispose };
}

export async function dropSchema(schema: string): Promise<void> {
  await withClient((client) => client.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`));
}

/** Runs `body` with a fresh connection to the test database. */
export async function withClient<T>(body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  client.on('error', () => {});
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end().catch(() => {});
  }
}
