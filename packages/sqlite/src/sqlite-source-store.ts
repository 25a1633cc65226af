import {
  KNOWLEDGE_PAGE_COLUMNS,
  KNOWLEDGE_SOURCE_COLUMNS,
  type KnowledgePage,
  type KnowledgePageRow,
  type KnowledgeSource,
  type KnowledgeSourceRow,
  knowledgePageOfRow,
  knowledgePageValues,
  knowledgeSourceOfRow,
  knowledgeSourceValues,
  type SourceStore,
} from '@treeagent/core/adapter';
import type Database from 'better-sqlite3';
import { type SchemaMigrations, SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';
import { StoreHandle } from './store-handle.js';

/** Knowledge sources and the pages read from them (docs/knowledge.md). */
export const SOURCE_SCHEMA: SchemaMigrations = {
  component: 'knowledge_sources',
  migrations: [
    `CREATE TABLE knowledge_sources (
       id TEXT PRIMARY KEY,
       kind TEXT NOT NULL,
       location TEXT NOT NULL,
       node_id INTEGER NOT NULL,
       collection TEXT NOT NULL,
       options TEXT NOT NULL,
       refresh_minutes INTEGER,
       status TEXT NOT NULL,
       created_at TEXT NOT NULL,
       refreshed_at TEXT,
       error TEXT,
       pages INTEGER NOT NULL,
       chunks INTEGER NOT NULL
     );
     CREATE TABLE knowledge_pages (
       source_id TEXT NOT NULL,
       url TEXT NOT NULL,
       title TEXT NOT NULL,
       etag TEXT,
       last_modified TEXT,
       content_hash TEXT NOT NULL,
       chunks INTEGER NOT NULL,
       fetched_at TEXT NOT NULL,
       PRIMARY KEY (source_id, url)
     );`,
  ],
};

/**
 * The knowledge sources (`SourceStore` of `@treeagent/core/adapter`) in the SQLite file, beside the
 * sessions and the vectors: what each source reads, its status and last refresh, and per page the
 * ETag, Last-Modified and content hash a refresh compares. `openSqlite` opens it with the other stores.
 */
export class SqliteSourceStore implements SourceStore {
  readonly file: string;
  readonly #database: SqliteDatabase;
  readonly #handle: StoreHandle;
  readonly #connection: Database.Database;
  readonly #savePages: (
    sourceId: string,
    pages: readonly KnowledgePage[],
    removed: readonly string[],
  ) => void;
  readonly #deleteSource: (id: string) => void;

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteDatabaseOptions = {}) {
    const database = SqliteDatabase.forStore(file, options, SOURCE_SCHEMA, 'VECTOR_STORE');
    this.#database = database;
    this.file = database.file;
    this.#handle = new StoreHandle(database, 'VECTOR_STORE', `The SQLite source store (${database.file})`);
    this.#connection = database.connection;
    const upsertPage = this.#connection.prepare(
      `INSERT INTO knowledge_pages (${KNOWLEDGE_PAGE_COLUMNS.join(', ')})
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (source_id, url) DO UPDATE SET title = excluded.title, etag = excluded.etag,
         last_modified = excluded.last_modified, content_hash = excluded.content_hash,
         chunks = excluded.chunks, fetched_at = excluded.fetched_at`,
    );
    const deletePage = this.#connection.prepare(
      'DELETE FROM knowledge_pages WHERE source_id = ? AND url = ?',
    );
    const savePages = this.#connection.transaction(
      (sourceId: string, pages: readonly KnowledgePage[], removed: readonly string[]) => {
        for (const url of removed) deletePage.run(sourceId, url);
        for (const page of pages) upsertPage.run(...knowledgePageValues(sourceId, page));
      },
    );
    this.#savePages = (sourceId, pages, removed) => savePages.immediate(sourceId, pages, removed);
    const deleteSource = this.#connection.transaction((id: string) => {
      this.#connection.prepare('DELETE FROM knowledge_pages WHERE source_id = ?').run(id);
      this.#connection.prepare('DELETE FROM knowledge_sources WHERE id = ?').run(id);
    });
    this.#deleteSource = (id) => deleteSource.immediate(id);
    database.retain();
  }

  async saveSource(source: KnowledgeSource): Promise<void> {
    this.#handle.run(`save the knowledge source "${source.id}"`, () => {
      this.#connection
        .prepare(
          `INSERT OR REPLACE INTO knowledge_sources (${KNOWLEDGE_SOURCE_COLUMNS.join(', ')})
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(...knowledgeSourceValues(source));
      this.#database.wrote();
    });
  }

  async getSource(id: string): Promise<KnowledgeSource | null> {
    return this.#handle.run('read a knowledge source', () => {
      const row = this.#connection.prepare('SELECT * FROM knowledge_sources WHERE id = ?').get(id) as
        | KnowledgeSourceRow
        | undefined;
      return row ? knowledgeSourceOfRow(row) : null;
    });
  }

  async listSources(): Promise<KnowledgeSource[]> {
    return this.#handle.run('list the knowledge sources', () =>
      (
        this.#connection
          .prepare('SELECT * FROM knowledge_sources ORDER BY created_at, id')
          .all() as KnowledgeSourceRow[]
      ).map(knowledgeSourceOfRow),
    );
  }

  async deleteSource(id: string): Promise<void> {
    this.#handle.run(`delete the knowledge source "${id}"`, () => {
      this.#deleteSource(id);
      this.#database.wrote();
    });
  }

  async listPages(sourceId: string): Promise<KnowledgePage[]> {
    return this.#handle.run('list the pages of a knowledge source', () =>
      (
        this.#connection
          .prepare('SELECT * FROM knowledge_pages WHERE source_id = ? ORDER BY url')
          .all(sourceId) as KnowledgePageRow[]
      ).map(knowledgePageOfRow),
    );
  }

  async savePages(
    sourceId: string,
    pages: readonly KnowledgePage[],
    removed: readonly string[],
  ): Promise<void> {
    this.#handle.run(`save the pages of the knowledge source "${sourceId}"`, () => {
      this.#savePages(sourceId, pages, removed);
      this.#database.wrote();
    });
  }

  /** Closes the file (when no other store shares it). */
  async close(): Promise<void> {
    this.#handle.close();
  }
}
