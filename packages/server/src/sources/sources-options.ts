import type { SourceStore } from '@treeagent/core/adapter';

/** The Sources page and `/api/v1/sources` (docs/knowledge.md): where sources live and what may be fetched. */
export interface SourcesOptions {
  /** Where sources and their pages are kept (`openSqlite(...).sourceStore`, `PostgresSourceStore`). */
  store: SourceStore;
  /**
   * Hosts the crawler may fetch although they are internal (loopback, private networks): none by
   * default, so a source added through the server cannot read the server's own network (SSRF).
   */
  allowPrivateHosts?: readonly string[];
  /** The contact page or mailto: in the crawler's user agent. */
  contact?: string;
  /** Where uploaded files are kept (a directory); without it, files cannot be uploaded. */
  fileDirectory?: string;
  /** Largest uploaded file, in bytes. Default 10 MiB. */
  maxFileBytes?: number;
  /** How often the scheduler looks for sources due a refresh, in ms; 0 turns it off. Default 60000. */
  scheduleIntervalMs?: number;
}
