import type pg from 'pg';
import { quoteIdent, transaction } from './sql.js';

/**
 * SQLSTATEs of a catalog entry created by someone else between our check and our insert:
 * PostgreSQL's `CREATE … IF NOT EXISTS` checks, then inserts into pg_namespace / pg_type / pg_class,
 * and a concurrent creator of the same name makes the later one fail with a unique violation
 * (`pg_namespace_nspname_index`, `pg_type_typname_nsp_index`) or a duplicate-object error.
 */
export const CREATION_RACE: ReadonlySet<string> = new Set(['23505', '42P06', '42P07', '42710']);

/** Attempts of a migration that lost a creation race to a creator that does not take our lock. */
export const MIGRATION_ATTEMPTS = 3;

/** A store's migration: its schema and the statements that create its tables, indexes and columns. */
export interface Migration {
  /** The schema (unquoted), created first when missing. Every migration in a schema is serialised. */
  schema: string;
  /**
   * The statements, in order, each one of `CREATE TABLE IF NOT EXISTS <schema-qualified name>`,
   * `CREATE [UNIQUE] INDEX IF NOT EXISTS <name> ON …` (the index lives in the table's schema) or
   * `ALTER TABLE <table> ADD COLUMN IF NOT EXISTS <column> …`, names quoted: what they create is
   * what "already migrated" checks.
   */
  statements: readonly string[];
}

/** What a migration's statements create: relations (quoted, schema-qualified) and added columns. */
interface Created {
  relations: string[];
  columns: [table: string, column: string][];
}

const QUOTED = '("(?:[^"]|"")+")';
const TABLE = new RegExp(`^\\s*CREATE TABLE IF NOT EXISTS (${QUOTED}\\.${QUOTED})`);
const INDEX = new RegExp(`^\\s*CREATE (?:UNIQUE )?INDEX IF NOT EXISTS ${QUOTED}\\s`);
const COLUMN = new RegExp(`^\\s*ALTER TABLE (${QUOTED}\\.${QUOTED}) ADD COLUMN IF NOT EXISTS (\\w+)\\s`);

/** Reads what `migration`'s statements create; a statement of another form is a programming error. */
export function createdBy(migration: Migration): Created {
  const created: Created = { relations: [], columns: [] };
  const schema = quoteIdent(migration.schema);
  for (const statement of migration.statements) {
    const table = TABLE.exec(statement);
    const index = INDEX.exec(statement);
    const column = COLUMN.exec(statement);
    if (table) created.relations.push(table[1]!);
    else if (index) created.relations.push(`${schema}.${index[1]!}`);
    else if (column) created.columns.push([column[1]!, column[4]!]);
    else
      throw new Error(`A migration statement must create a table, an index or a column: ${statement.trim()}`);
  }
  return created;
}

/**
 * Runs a store's migration so that any number of processes may start at once on one database:
 *
 * - when every table, index and column it creates is already there it only looks (no lock, no
 *   CREATE privilege needed);
 * - otherwise it runs the statements in one transaction holding an advisory lock named after the
 *   schema, which every TreeAgent store takes before creating anything in that schema, so they
 *   create one after the other and each sees what the previous one committed; a migration either
 *   happens whole or not at all (DDL is transactional), so no process can use a table another is
 *   still adding columns to;
 * - a creation race with someone not taking the lock (another tool creating the schema) is retried.
 */
export async function runMigration(pool: pg.Pool, migration: Migration): Promise<void> {
  const created = createdBy(migration);
  if (await isCurrent(pool, created)) return;
  for (let attempt = 1; ; attempt++) {
    try {
      await transaction(pool, async (client) => {
        await lockSchemaForMigration(client, migration.schema);
        if (await isCurrent(client, created)) return;
        const { rows } = await client.query<{ exists: boolean }>(
          'SELECT to_regnamespace($1) IS NOT NULL AS exists',
          [quoteIdent(migration.schema)],
        );
        if (!rows[0]!.exists)
          await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(migration.schema)}`);
        for (const statement of migration.statements) await client.query(statement);
      });
      return;
    } catch (error) {
      if (attempt >= MIGRATION_ATTEMPTS || !isCreationRace(error)) throw error;
    }
  }
}

/**
 * Takes (for the transaction) the advisory lock every TreeAgent store holds while it creates
 * anything in `schema`, so their migrations run one after the other.
 */
export async function lockSchemaForMigration(client: pg.PoolClient, schema: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`treeagent-migrate-schema:${schema}`]);
}

/** Whether `error` is a creation race lost to a concurrent creator (see `CREATION_RACE`). */
export function isCreationRace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CREATION_RACE.has(code);
}

/** Whether every relation and column of a migration exists (one query). */
async function isCurrent(client: pg.Pool | pg.PoolClient, created: Created): Promise<boolean> {
  const { relations, columns } = created;
  const { rows } = await client.query<{ current: boolean }>(
    `SELECT (SELECT bool_and(to_regclass(name) IS NOT NULL) FROM unnest($1::text[]) AS name)
        AND (SELECT count(*) FROM unnest($2::text[], $3::text[]) AS wanted (relation, name)
               WHERE NOT EXISTS (SELECT 1 FROM pg_attribute
                                  WHERE attrelid = to_regclass(wanted.relation)
                                    AND attname = wanted.name AND NOT attisdropped)) = 0 AS current`,
    [relations, columns.map(([table]) => table), columns.map(([, column]) => column)],
  );
  return rows[0]?.current === true;
}
