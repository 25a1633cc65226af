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
import type pg from 'pg';
import { type PostgresOperatorStoreOptions, PostgresSideTable } from './postgres-side-table.js';
import { sessionTable } from './sql.js';

/**
 * The knowledge sources (`SourceStore` of `@treeagent/core/adapter`) in PostgreSQL, tables
 * `<prefix>knowledge_sources` and `<prefix>knowledge_pages`: what each source reads, its status and
 * last refresh, and per page the ETag, Last-Modified and content hash a refresh compares.
 *
 * @example
 * const sourceStore = new PostgresSourceStore({ connection: process.env.DATABASE_URL });
 */
export class PostgresSourceStore extends PostgresSideTable implements SourceStore {
  /** Quoted, schema-qualified name of the pages table. */
  readonly pagesTable: string;

  constructor(options: PostgresOperatorStoreOptions) {
    super(options, 'knowledge_sources', 'knowledge sources table', 'PostgresSourceStore');
    this.pagesTable = sessionTable(
      options.schema ?? 'public',
      `${options.tablePrefix ?? 'treeagent_'}knowledge_pages`,
      'knowledge pages table',
    );
  }

  protected createStatements(): string[] {
    return [
      `CREATE TABLE IF NOT EXISTS ${this.table} (
         id text PRIMARY KEY,
         kind text NOT NULL,
         location text NOT NULL,
         node_id integer NOT NULL,
         collection text NOT NULL,
         options jsonb NOT NULL,
         refresh_minutes integer,
         status text NOT NULL,
         created_at timestamptz NOT NULL,
         refreshed_at timestamptz,
         error text,
         pages integer NOT NULL,
         chunks integer NOT NULL
       )`,
      `CREATE TABLE IF NOT EXISTS ${this.pagesTable} (
         source_id text NOT NULL,
         url text NOT NULL,
         title text NOT NULL,
         etag text,
         last_modified text,
         content_hash text NOT NULL,
         chunks integer NOT NULL,
         fetched_at timestamptz NOT NULL,
         PRIMARY KEY (source_id, url)
       )`,
    ];
  }

  async saveSource(source: KnowledgeSource): Promise<void> {
    await this.run(`save the knowledge source "${source.id}"`, (pool) =>
      pool.query(
        `INSERT INTO ${this.table} (${KNOWLEDGE_SOURCE_COLUMNS.join(', ')})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, location = excluded.location,
           node_id = excluded.node_id, collection = excluded.collection, options = excluded.options,
           refresh_minutes = excluded.refresh_minutes, status = excluded.status, created_at = excluded.created_at,
           refreshed_at = excluded.refreshed_at, error = excluded.error, pages = excluded.pages, chunks = excluded.chunks`,
        knowledgeSourceValues(source),
      ),
    );
  }

  async getSource(id: string): Promise<KnowledgeSource | null> {
    return this.run('read a knowledge source', async (pool) => {
      const { rows } = await pool.query<KnowledgeSourceRow>(`SELECT * FROM ${this.table} WHERE id = $1`, [
        id,
      ]);
      return rows[0] ? knowledgeSourceOfRow(rows[0]) : null;
    });
  }

  async listSources(): Promise<KnowledgeSource[]> {
    return this.run('list the knowledge sources', async (pool) => {
      const { rows } = await pool.query<KnowledgeSourceRow>(
        `SELECT * FROM ${this.table} ORDER BY created_at, id`,
      );
      return rows.map(knowledgeSourceOfRow);
    });
  }

  async deleteSource(id: string): Promise<void> {
    await this.run(`delete the knowledge source "${id}"`, (pool) =>
      this.#transaction(pool, async (client) => {
        await client.query(`DELETE FROM ${this.pagesTable} WHERE source_id = $1`, [id]);
        await client.query(`DELETE FROM ${this.table} WHERE id = $1`, [id]);
      }),
    );
  }

  async listPages(sourceId: string): Promise<KnowledgePage[]> {
    return this.run('list the pages of a knowledge source', async (pool) => {
      const { rows } = await pool.query<KnowledgePageRow>(
        `SELECT url, title, etag, last_modified, content_hash, chunks, fetched_at FROM ${this.pagesTable}
         WHERE source_id = $1 ORDER BY url COLLATE "C"`,
        [sourceId],
      );
      return rows.map(knowledgePageOfRow);
    });
  }

  async savePages(
    sourceId: string,
    pages: readonly KnowledgePage[],
    removed: readonly string[],
  ): Promise<void> {
    await this.run(`save the pages of the knowledge source "${sourceId}"`, (pool) =>
      this.#transaction(pool, async (client) => {
        if (removed.length)
          await client.query(
            `DELETE FROM ${this.pagesTable} WHERE source_id = $1 AND url = ANY($2::text[])`,
            [sourceId, [...removed]],
          );
        for (const page of pages)
          await client.query(
            `INSERT INTO ${this.pagesTable} (${KNOWLEDGE_PAGE_COLUMNS.join(', ')})
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (source_id, url) DO UPDATE SET title = excluded.title, etag = excluded.etag,
               last_modified = excluded.last_modified, content_hash = excluded.content_hash,
               chunks = excluded.chunks, fetched_at = excluded.fetched_at`,
            knowledgePageValues(sourceId, page),
          );
      }),
    );
  }

  /** Runs `body` in one transaction on one connection of the pool. */
  async #transaction(pool: pg.Pool, body: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await body(client);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}
