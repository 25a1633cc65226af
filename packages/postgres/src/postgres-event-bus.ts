import { TreeAgentError } from '@treeagent/core';
import type { BusEvent, EventBus } from '@treeagent/core/adapter';
import pg from 'pg';
import { identifier, type StorePool, storeError, storePool } from './sql.js';

export interface PostgresEventBusOptions {
  /** A `postgres://` URL or a pg `PoolConfig`. Required unless `pool` is given. */
  connection?: string | pg.PoolConfig;
  /** An existing pg pool for publishing (left open by `close()`); the listener gets its own connection with the same settings. */
  pool?: pg.Pool;
  /** The `LISTEN`/`NOTIFY` channel. Default `treeagent_events`. */
  channel?: string;
}

/**
 * The server's event bus (`EventBus` of `@treeagent/core/adapter`) across processes, with PostgreSQL's
 * `LISTEN`/`NOTIFY`: every process on the database hears every event (its own included), so an
 * operator connected to one process reaches a user connected to another. The listener holds one
 * connection of its own; when it drops, it reconnects (backing off up to 5 s) and tells its
 * listeners to `resync` (re-read what they show), since notifications sent meanwhile are lost.
 *
 * @example
 * const bus = new PostgresEventBus({ connection: process.env.DATABASE_URL });
 * await serve({ agent, handoff: { bus, queue: new PostgresHandoffQueue({ connection }) } });
 */
export class PostgresEventBus implements EventBus {
  readonly channel: string;
  readonly #store: StorePool;
  readonly #listeners = new Set<(event: BusEvent) => void>();
  #client: pg.Client | null = null;
  #connecting: Promise<void> | null = null;
  #retryMs = 200;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(options: PostgresEventBusOptions) {
    this.channel = options.channel ?? 'treeagent_events';
    identifier(this.channel, 'channel', 'SESSION_STORE');
    this.#store = storePool(options, 'SESSION_STORE', 'PostgresEventBus');
  }

  /** Sends `event` to every process listening (at most 8000 bytes of JSON, PostgreSQL's limit). */
  async publish(event: BusEvent): Promise<void> {
    if (this.#closed) throw new TreeAgentError('SESSION_STORE', 'The PostgresEventBus is closed.');
    try {
      await this.#store.pool.query('SELECT pg_notify($1, $2)', [this.channel, JSON.stringify(event)]);
    } catch (error) {
      throw storeError(error, 'SESSION_STORE', 'publish a handoff event', this.#store.endpoint);
    }
  }

  /** Calls `listener` with every event from now on (the first subscription starts listening). */
  subscribe(listener: (event: BusEvent) => void): () => void {
    this.#listeners.add(listener);
    void this.#listen();
    return () => this.#listeners.delete(listener);
  }

  /** Resolves once this process listens (tests; `subscribe` starts it anyway). */
  async ready(): Promise<void> {
    await this.#listen();
  }

  /** Stops listening and ends the pool (unless it was given). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#client?.end().catch(() => {});
    this.#client = null;
    if (this.#store.ownsPool) await this.#store.pool.end();
  }

  #emit(event: BusEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own.
      }
    }
  }

  #listen(): Promise<void> {
    if (this.#client || this.#closed) return Promise.resolve();
    this.#connecting ??= (async () => {
      const client = new pg.Client(this.#store.config);
      const lost = () => {
        if (this.#client !== client) return;
        this.#client = null;
        client.end().catch(() => {});
        this.#reconnect();
      };
      client.on('error', lost);
      client.on('end', lost);
      client.on('notification', (message) => {
        if (message.channel !== this.channel || !message.payload) return;
        try {
          this.#emit(JSON.parse(message.payload) as BusEvent);
        } catch {
          // Not one of ours.
        }
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${identifier(this.channel, 'channel', 'SESSION_STORE')}`);
        if (this.#closed) {
          await client.end().catch(() => {});
          return;
        }
        const reconnected = this.#retryMs > 200;
        this.#client = client;
        this.#retryMs = 200;
        if (reconnected) this.#emit({ kind: 'resync' });
      } catch {
        client.end().catch(() => {});
        this.#reconnect();
      }
    })().finally(() => {
      this.#connecting = null;
    });
    return this.#connecting;
  }

  #reconnect(): void {
    if (this.#closed || this.#timer) return;
    const delay = this.#retryMs;
    this.#retryMs = Math.min(this.#retryMs * 2, 5000);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#listen();
    }, delay);
    this.#timer.unref?.();
  }
}
