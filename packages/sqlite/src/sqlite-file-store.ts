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
import type Database from 'better-sqlite3';
import { type SchemaMigrations, SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';
import { StoreHandle } from './store-handle.js';

/** Files: one row of metadata each, the bytes in chunks of at most `CHUNK_BYTES`. */
export const FILE_SCHEMA: SchemaMigrations = {
  component: 'files',
  migrations: [
    `CREATE TABLE files (
       id TEXT PRIMARY KEY NOT NULL,
       session_id TEXT,
       name TEXT NOT NULL,
       mime_type TEXT NOT NULL,
       origin TEXT NOT NULL,
       size INTEGER NOT NULL,
       complete INTEGER NOT NULL,
       created_at TEXT NOT NULL
     );
     CREATE INDEX files_by_session ON files (session_id);
     CREATE TABLE file_chunks (
       file_id TEXT NOT NULL,
       seq INTEGER NOT NULL,
       data BLOB NOT NULL,
       PRIMARY KEY (file_id, seq)
     ) WITHOUT ROWID;`,
  ],
};

/** Bytes per stored chunk (and the most an upload holds in memory). */
export const CHUNK_BYTES = 1024 * 1024;

/** An upload left incomplete by a crash is deleted once it is this old. */
const ABANDONED_AFTER_MS = 60 * 60 * 1000;

interface FileRow {
  id: string;
  session_id: string | null;
  name: string;
  mime_type: string;
  origin: FileOrigin;
  size: number;
}

/**
 * The conversation's files (`FileStore`) in the SQLite file, beside the sessions: metadata in
 * `files`, bytes in 1 MiB chunks in `file_chunks`. An upload is written chunk by chunk as it arrives
 * (`putStream`: never more than one chunk in memory, each chunk its own short transaction so other
 * writers are not blocked for the length of an upload) and becomes visible only when its last
 * chunk is committed: a file acknowledged to the client survives `kill -9` (WAL), and an upload cut
 * by a crash is removed later. `usage` sums the sizes for quotas; `deleteSession` removes a session's
 * files. `openSqlite` opens it with the other stores.
 *
 * @example
 * const data = openSqlite('.data');
 * const agent = new TreeAgent({ tree, sessionStore: data.sessionStore, fileStore: data.fileStore });
 */
export class SqliteFileStore implements FileStore {
  readonly file: string;
  readonly #database: SqliteDatabase;
  readonly #handle: StoreHandle;
  readonly #insertFile: Database.Statement;
  readonly #insertChunk: Database.Statement;
  readonly #complete: Database.Statement;
  readonly #select: Database.Statement;
  readonly #chunks: Database.Statement;
  readonly #deleteFile: (id: string) => void;
  readonly #sessionFiles: Database.Statement;
  readonly #listSession: Database.Statement;
  readonly #usageAll: Database.Statement;
  readonly #usageSession: Database.Statement;
  readonly #abandoned: Database.Statement;
  readonly #expired: Database.Statement;

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteDatabaseOptions = {}) {
    const database = SqliteDatabase.forStore(file, options, FILE_SCHEMA, 'SESSION_STORE');
    this.#database = database;
    this.file = database.file;
    this.#handle = new StoreHandle(database, 'SESSION_STORE', `The SQLite file store (${database.file})`);
    const db = database.connection;
    this.#insertFile = db.prepare(
      `INSERT INTO files (id, session_id, name, mime_type, origin, size, complete, created_at)
       VALUES (?, ?, ?, ?, ?, 0, 0, ?)`,
    );
    this.#insertChunk = db.prepare('INSERT INTO file_chunks (file_id, seq, data) VALUES (?, ?, ?)');
    this.#complete = db.prepare('UPDATE files SET size = ?, complete = 1 WHERE id = ?');
    this.#select = db.prepare(
      'SELECT id, session_id, name, mime_type, origin, size FROM files WHERE id = ? AND complete = 1',
    );
    this.#chunks = db.prepare('SELECT data FROM file_chunks WHERE file_id = ? ORDER BY seq');
    const deleteChunks = db.prepare('DELETE FROM file_chunks WHERE file_id = ?');
    const deleteRow = db.prepare('DELETE FROM files WHERE id = ?');
    const deleteFile = db.transaction((id: string) => {
      deleteChunks.run(id);
      deleteRow.run(id);
    });
    this.#deleteFile = (id) => deleteFile.immediate(id);
    this.#sessionFiles = db.prepare('SELECT id FROM files WHERE session_id = ?');
    this.#listSession = db.prepare(
      `SELECT id, session_id, name, mime_type, origin, size FROM files
        WHERE session_id = ? AND complete = 1 ORDER BY created_at, rowid`,
    );
    this.#usageAll = db.prepare('SELECT coalesce(sum(size), 0) AS bytes FROM files WHERE complete = 1');
    this.#usageSession = db.prepare(
      'SELECT coalesce(sum(size), 0) AS bytes FROM files WHERE complete = 1 AND session_id = ?',
    );
    this.#abandoned = db.prepare('SELECT id FROM files WHERE complete = 0 AND created_at < ?');
    this.#expired = db.prepare('SELECT id FROM files WHERE session_id IS NOT NULL AND created_at < ?');
    database.retain();
    this.#removeAbandoned();
  }

  async put(file: NewFile): Promise<FileMetadata> {
    return this.putStream({ ...file, data: singlePart(file.data) });
  }

  async putStream(file: NewFileStream): Promise<FileMetadata> {
    const id = randomUUID();
    this.#run(`store file "${file.name}"`, () => {
      this.#insertFile.run(
        id,
        file.sessionId ?? null,
        file.name,
        file.mimeType,
        file.origin,
        new Date().toISOString(),
      );
      this.#database.wrote();
    });
    try {
      const size = await writeInChunks(file.data, CHUNK_BYTES, (chunk, seq) =>
        this.#run(`store file "${file.name}"`, () => {
          this.#insertChunk.run(id, seq, chunk);
          this.#database.wrote();
        }),
      );
      this.#run(`store file "${file.name}"`, () => {
        this.#complete.run(size, id);
        this.#database.wrote();
      });
      return storedFileMetadata(id, file, size);
    } catch (error) {
      try {
        this.#deleteFile(id);
      } catch {
        // Removed later as an abandoned upload.
      }
      throw error;
    }
  }

  async metadata(id: string): Promise<FileMetadata | null> {
    const row = this.#run(`read file "${id}"`, () => this.#select.get(id) as FileRow | undefined);
    return row ? toMetadata(row) : null;
  }

  async read(id: string): Promise<Uint8Array> {
    return this.#run(`read file "${id}"`, () => {
      if (!this.#select.get(id)) {
        throw new TreeAgentError('UNKNOWN_FILE', `There is no file "${id}".`, { details: { fileId: id } });
      }
      const chunks = (this.#chunks.all(id) as { data: Buffer }[]).map((row) => row.data);
      return new Uint8Array(Buffer.concat(chunks));
    });
  }

  async delete(id: string): Promise<void> {
    this.#run(`delete file "${id}"`, () => {
      this.#deleteFile(id);
      this.#database.wrote();
    });
  }

  async deleteSession(sessionId: string): Promise<void> {
    this.#run(`delete the files of session "${sessionId}"`, () => {
      for (const { id } of this.#sessionFiles.all(sessionId) as { id: string }[]) this.#deleteFile(id);
      this.#database.wrote();
    });
  }

  async sessionFiles(sessionId: string): Promise<FileMetadata[]> {
    return this.#run(`list the files of session "${sessionId}"`, () =>
      (this.#listSession.all(sessionId) as FileRow[]).map(toMetadata),
    );
  }

  async usage(sessionId?: string): Promise<number> {
    return this.#run('sum the stored bytes', () => {
      const row = (sessionId === undefined ? this.#usageAll.get() : this.#usageSession.get(sessionId)) as {
        bytes: number;
      };
      return row.bytes;
    });
  }

  /** Deletes the session files stored before `before` (the retention sweep); returns how many. */
  async deleteOlderThan(before: Date): Promise<number> {
    return this.#run('delete expired files', () => {
      const rows = this.#expired.all(before.toISOString()) as { id: string }[];
      for (const { id } of rows) this.#deleteFile(id);
      if (rows.length) this.#database.wrote();
      return rows.length;
    });
  }

  /** Empties the WAL after a deletion, so no earlier image of deleted rows stays in it (docs/privacy.md). */
  async purgeDeleted(): Promise<void> {
    this.#handle.purgeDeleted();
  }

  /** Closes the file (when no other store shares it). */
  async close(): Promise<void> {
    this.#handle.close();
  }

  #removeAbandoned(): void {
    try {
      const cutoff = new Date(Date.now() - ABANDONED_AFTER_MS).toISOString();
      for (const { id } of this.#abandoned.all(cutoff) as { id: string }[]) this.#deleteFile(id);
    } catch {
      // Busy: the next open tries again.
    }
  }

  #run<T>(what: string, body: () => T): T {
    return this.#handle.run(what, body);
  }
}

function toMetadata(row: FileRow): FileMetadata {
  return {
    id: row.id,
    name: row.name,
    mimeType: row.mime_type,
    size: row.size,
    origin: row.origin,
    ...(row.session_id === null ? {} : { sessionId: row.session_id }),
  };
}
