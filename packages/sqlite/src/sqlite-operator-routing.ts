import type { OperatorPresence, OperatorRouting, PresenceStatus } from '@treeagent/core/adapter';
import { nextAfter } from '@treeagent/core/adapter';
import type Database from 'better-sqlite3';
import { type SchemaMigrations, SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';
import { StoreHandle } from './store-handle.js';

/** Operators' presence and each team's round robin (the server's `OperatorRouting`). */
export const OPERATOR_ROUTING_SCHEMA: SchemaMigrations = {
  component: 'operator_routing',
  migrations: [
    `CREATE TABLE operator_presence (
       operator_id TEXT PRIMARY KEY NOT NULL,
       name TEXT NOT NULL,
       teams TEXT NOT NULL,
       status TEXT NOT NULL,
       at TEXT NOT NULL
     ) WITHOUT ROWID;
     CREATE TABLE team_rotation (
       team TEXT PRIMARY KEY NOT NULL,
       last_operator_id TEXT NOT NULL
     ) WITHOUT ROWID;`,
  ],
};

/**
 * Operators' presence and the teams' round robins (`OperatorRouting` of `@treeagent/core/adapter`)
 * in the SQLite file: every process on the file sees who is online, and a round robin's turn is
 * taken in one `BEGIN IMMEDIATE` transaction. `openSqlite` opens it with the other stores.
 */
export class SqliteOperatorRouting implements OperatorRouting {
  readonly file: string;
  readonly #database: SqliteDatabase;
  readonly #handle: StoreHandle;
  readonly #upsert: Database.Statement;
  readonly #list: Database.Statement;
  readonly #last: Database.Statement;
  readonly #setLast: Database.Statement;
  readonly #rotate: (team: string, candidates: readonly string[]) => string | null;

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteDatabaseOptions = {}) {
    const database = SqliteDatabase.forStore(file, options, OPERATOR_ROUTING_SCHEMA, 'SESSION_STORE');
    this.#database = database;
    this.file = database.file;
    this.#handle = new StoreHandle(
      database,
      'SESSION_STORE',
      `The SQLite operator routing (${database.file})`,
    );
    const db = database.connection;
    this.#upsert = db.prepare(
      `INSERT INTO operator_presence (operator_id, name, teams, status, at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (operator_id) DO UPDATE SET name = excluded.name, teams = excluded.teams,
         status = excluded.status, at = excluded.at`,
    );
    this.#list = db.prepare(
      'SELECT operator_id, name, teams, status, at FROM operator_presence ORDER BY operator_id',
    );
    this.#last = db.prepare('SELECT last_operator_id FROM team_rotation WHERE team = ?');
    this.#setLast = db.prepare(
      `INSERT INTO team_rotation (team, last_operator_id) VALUES (?, ?)
       ON CONFLICT (team) DO UPDATE SET last_operator_id = excluded.last_operator_id`,
    );
    this.#rotate = db.transaction((team: string, candidates: readonly string[]) => {
      const row = this.#last.get(team) as { last_operator_id: string } | undefined;
      const next = nextAfter(row?.last_operator_id ?? null, candidates);
      if (next !== null) this.#setLast.run(team, next);
      return next;
    }).immediate;
    database.retain();
  }

  async setPresence(presence: OperatorPresence): Promise<void> {
    this.#handle.run(`set the presence of operator "${presence.operatorId}"`, () => {
      this.#upsert.run(
        presence.operatorId,
        presence.name,
        JSON.stringify(presence.teams),
        presence.status,
        presence.at.toISOString(),
      );
      this.#database.wrote();
    });
  }

  async presence(): Promise<OperatorPresence[]> {
    return this.#handle.run("read the operators' presence", () =>
      (
        this.#list.all() as { operator_id: string; name: string; teams: string; status: string; at: string }[]
      ).map((row) => ({
        operatorId: row.operator_id,
        name: row.name,
        teams: JSON.parse(row.teams) as string[],
        status: row.status as PresenceStatus,
        at: new Date(row.at),
      })),
    );
  }

  async nextInRotation(team: string, candidates: readonly string[]): Promise<string | null> {
    if (candidates.length === 0) return null;
    return this.#handle.run(`take the next turn of team "${team}"`, () => {
      const next = this.#rotate(team, candidates);
      this.#database.wrote();
      return next;
    });
  }

  /** Closes the file (when no other store shares it). */
  async close(): Promise<void> {
    this.#handle.close();
  }
}
