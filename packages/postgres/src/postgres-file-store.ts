import { randomUUID } from 'node:crypto';
import { type FileMetadata, type FileOrigin, TreeAgentError } from '@treeagent/core';
import {
  type FileStore,
  type NewFile,
  type NewFileStream,
  singlePart,
  storedFileMetadata,
  writeInChunks,
} from '@treeagent/core/adapter';
import type pg from 'pg';
import { runMigration } from './migration.js';
import { identifier, quoteIdent, retriedOnce, type StorePool, storeError, storePool, vacuum } from './sql.js';

export interface PostgresFileStoreOptions {
  /** A `postgres://` URL or a pg `PoolConfig`. Required unless `pool` is given. */
  connection?: string | pg.PoolConfig;
  /** An existing pg pool (left open by `close()`), e.g. the one of your other stores. */
  pool?: pg.Pool;
  /** Schema of the tables; created when missing. Default `public`. */
  schema?: string;
  /** Prefix of the table names: `<prefix>files`, `<prefix>file_chunks`. Default `treeagent_`. */
  tablePrefix?: string;
  /** Create the tables on first use (idempotent). Default `true`. */
  autoMigrate?: boolean;
}

/** Bytes per stored chunk (and the most an upload holds in memory). */
const CHUNK_BYTES = 1024 * 1024;
/** An upload left incomplete by a crash is deleted by `deleteAbandoned` once it is this old. */
const ABANDONED_AFTER = '1 hour';

interface FileRow {
  id: string;
  session_id: string | null;
  name: string;
  mime_type: string;
  origin: FileOrigin;
  size: string;
}

/**
 * The conversation's files (`FileStore`) in PostgreSQL, shared by every server process: metadata
 * in `<prefix>files`, bytes in 1 MiB `bytea` chunks in `<prefix>file_chunks`. An upload is written
 * chunk by chunk as it arrives (`putStream`, one short statement per chunk, never more than a chunk
 * in memory) and becomes visible only when its last chunk is committed, so a file acknowledged to
 * the client survives a crash of the process; an upload cut by a crash is removed by
 * `deleteAbandoned`. `usage` sums the sizes for quotas; `deleteSession` removes a session's files.
 *
 * @example
 * const fileStore = new PostgresFileStore({ connection: process.env.DATABASE_URL });
 * const agent = new TreeAgent({ tree, sessionStore, fileStore });
 */
export class PostgresFileStore implements FileStore {
  /** Quoted, schema-qualified table names. */
  readonly tables: { files: string; chunks: string };
  readonly #store: StorePool;
  readonly #schema: string;
  readonly #autoMigrate: boolean;
  readonly #migrateOnce = retriedOnce(() => this.migrate());
  #closed = false;

  constructor(options: PostgresFileStoreOptions) {
    this.#schema = options.schema ?? 'public';
    const prefix = options.tablePrefix ?? 'treeagent_';
    const schema = identifier(this.#schema, 'schema', 'SESSION_STORE');
    this.tables = {
      files: `${schema}.${identifier(`${prefix}files`, 'files table', 'SESSION_STORE')}`,
      chunks: `${schema}.${identifier(`${prefix}file_chunks`, 'file chunks table', 'SESSION_STORE')}`,
    };
    this.#store = storePool(options, 'SESSION_STORE', 'PostgresFileStore');
    this.#autoMigrate = options.autoMigrate ?? true;
  }

  get #pool(): pg.Pool {
    return this.#store.pool;
  }

  /**
   * Creates the schema and the tables when missing: idempotent, and safe when several processes
   * start at once (see `runMigration`).
   */
  async migrate(): Promise<void> {
    const bySession = quoteIdent(`${this.tables.files.split('.').pop()!.replaceAll('"', '')}_by_session`);
    try {
      await runMigration(this.#pool, {
        schema: this.#schema,
        statements: [
          `CREATE TABLE IF NOT EXISTS ${this.tables.files} (
             id uuid PRIMARY KEY,
             session_id text,
             name text NOT NULL,
             mime_type text NOT NULL,
             origin text NOT NULL,
             size bigint NOT NULL DEFAULT 0,
             complete boolean NOT NULL DEFAULT false,
             created_at timestamptz NOT NULL DEFAULT now()
           )`,
          `CREATE INDEX IF NOT EXISTS ${bySession} ON ${this.tables.files} (session_id)`,
          `CREATE TABLE IF NOT EXISTS ${this.tables.chunks} (
             file_id uuid NOT NULL REFERENCES ${this.tables.files} (id) ON DELETE CASCADE,
             seq integer NOT NULL,
             data bytea NOT NULL,
             PRIMARY KEY (file_id, seq)
           )`,
        ],
      });
    } catch (error) {
      throw storeError(error, 'SESSION_STORE', 'create the file tables', this.#store.endpoint);
    }
  }

  async put(file: NewFile): Promise<FileMetadata> {
    return this.putStream({ ...file, data: singlePart(file.data) });
  }

  async putStream(file: NewFileStream): Promise<FileMetadata> {
    const id = randomUUID();
    const what = `store file "${file.name}"`;
    await this.#run(what, () =>
      this.#pool.query(
        `INSERT INTO ${this.tables.files} (id, session_id, name, mime_type, origin) VALUES ($1, $2, $3, $4, $5)`,
        [id, file.sessionId ?? null, file.name, file.mimeType, file.origin],
      ),
    );
    try {
      const size = await writeInChunks(file.data, CHUNK_BYTES, (chunk, seq) =>
        this.#run(what, () =>
          this.#pool.query(`INSERT INTO ${this.tables.chunks} (file_id, seq, data) VALUES ($1, $2, $3)`, [
            id,
            seq,
            chunk,
          ]),
        ),
      );
      await this.#run(what, () =>
        this.#pool.query(`UPDATE ${this.tables.files} SET size = $1, complete = true WHERE id = $2`, [
          size,
          id,
        ]),
      );
      return storedFileMetadata(id, file, size);
    } catch (error) {
      await this.#pool.query(`DELETE FROM ${this.tables.files} WHERE id = $1`, [id]).catch(() => {});
      throw error;
    }
  }

  async metadata(id: string): Promise<FileMetadata | null> {
    if (!UUID.test(id)) return null;
    const row = await this.#run(`read file "${id}"`, async () => {
      const { rows } = await this.#pool.query<FileRow>(
        `SELECT id, session_id, name, mime_type, origin, size FROM ${this.tables.files} WHERE id = $1 AND complete`,
        [id],
      );
      return rows[0];
    });
    return row ? toMetadata(row) : null;
  }

  async read(id: string): Promise<Uint8Array> {
    if (!(await this.metadata(id))) {
      throw new TreeAgentError('UNKNOWN_FILE', `There is no file "${id}".`, { details: { fileId: id } });
    }
    return this.#run(`read file "${id}"`, async () => {
      const { rows } = await this.#pool.query<{ data: Buffer }>(
        `SELECT data FROM ${this.tables.chunks} WHERE file_id = $1 ORDER BY seq`,
        [id],
      );
      return new Uint8Array(Buffer.concat(rows.map((row) => row.data)));
    });
  }

  async delete(id: string): Promise<void> {
    if (!UUID.test(id)) return;
    await this.#run(`delete file "${id}"`, () =>
      this.#pool.query(`DELETE FROM ${this.tables.files} WHERE id = $1`, [id]),
    );
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.#run(`delete the files of session "${sessionId}"`, () =>
      this.#pool.query(`DELETE FROM ${this.tables.files} WHERE session_id = $1`, [sessionId]),
    );
  }

  async sessionFiles(sessionId: string): Promise<FileMetadata[]> {
    return this.#run(`list the files of session "${sessionId}"`, async () => {
      const { rows } = await this.#pool.query<FileRow>(
        `SELECT id, session_id, name, mime_type, origin, size FROM ${this.tables.files}
          WHERE session_id = $1 AND complete ORDER BY created_at, id`,
        [sessionId],
      );
      return rows.map(toMetadata);
    });
  }

  async usage(sessionId?: string): Promise<number> {
    return this.#run('sum the stored bytes', async () => {
      const { rows } = await this.#pool.query<{ bytes: string }>(
        sessionId === undefined
          ? `SELECT coalesce(sum(size), 0) AS bytes FROM ${this.tables.files} WHERE complete`
          : `SELECT coalesce(sum(size), 0) AS bytes FROM ${this.tables.files} WHERE complete AND session_id = $1`,
        sessionId === undefined ? [] : [sessionId],
      );
      return Number(rows[0]?.bytes ?? 0);
    });
  }

  /** `VACUUM` of its tables (files and their chunks) after a deletion (see `vacuum` in sql.ts; docs/privacy.md). */
  async purgeDeleted(): Promise<void> {
    await this.#run('vacuum the file tables', () =>
      vacuum(this.#pool, [this.tables.files, this.tables.chunks]),
    );
  }

  /** Deletes uploads a crashed process left incomplete for over an hour; returns how many. */
  async deleteAbandoned(): Promise<number> {
    return this.#run('delete abandoned uploads', async () => {
      const { rowCount } = await this.#pool.query(
        `DELETE FROM ${this.tables.files} WHERE NOT complete AND created_at < now() - interval '${ABANDONED_AFTER}'`,
      );
      return rowCount ?? 0;
    });
  }

  /** Ends the pool (unless it was given). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#store.ownsPool) await this.#pool.end();
  }

  async #run<T>(operation: string, body: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new TreeAgentError('SESSION_STORE', 'The PostgresFileStore is closed.');
    if (this.#autoMigrate) await this.#migrateOnce();
    try {
      return await body();
    } catch (error) {
      throw storeError(error, 'SESSION_STORE', operation, this.#store.endpoint);
    }
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function toMetadata(row: FileRow): FileMetadata {
  return {
    id: row.id,
    name: row.name,
    mimeType: row.mime_type,
    size: Number(row.size),
    origin: row.origin,
    ...(row.session_id === null ? {} : { sessionId: row.session_id }),
  };
}
