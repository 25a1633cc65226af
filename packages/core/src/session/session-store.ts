import type { InboundReceipt } from '../protocol/channel.js';
import type { ChannelDeliveryInput, ChannelStore } from '../protocol/channel-store.js';
import type { ExploreConstraintsData } from '../protocol/explore-constraints-data.js';
import type { FileMetadata } from '../protocol/file-metadata.js';
import type { HandBackTarget, HandoffState } from '../protocol/handoff.js';
import type { HandoffEvent, HandoffOutbox } from '../protocol/handoff-outbox.js';
import type { HistoryEntry } from '../protocol/history-entry.js';
import type { OutputMessage } from '../protocol/output-message.js';
import type { TurnFact } from '../protocol/turn-fact.js';

/** Everything a session keeps between interactions, except the history (docs/concepts.md §3). */
export interface SessionRecord {
  id: string;
  /** Incremented by every commit; guards against lost updates. 0 for a session never committed. */
  version: number;
  /** Number of interactions committed. */
  turn: number;
  /** Serialised `sessionState`. */
  state: Record<string, unknown>;
  /** Last executed node: the next interaction resumes at its `after`. */
  lastNodeId: number | null;
  /** Last executed node of each agent, by agent id, for multi-agent `resume`. */
  agentPositions: Record<string, number>;
  /** Message sent by `lastNodeId` when it ended the turn; its `after` receives it in `special`. */
  pendingMessage: OutputMessage | null;
  /** Explore constraints, kept only when `keep` is true. */
  constraints: ExploreConstraintsData | null;
  failCounter: number;
  /**
   * The files of the conversation (uploaded, made in code, behind retrieved chunks), as the File
   * Agent lists them; absent in records written before it was kept.
   */
  files?: FileMetadata[];
  /** While people have the session: the handoff (absent or `null` otherwise). */
  handoff?: HandoffState | null;
  /**
   * The session's language, one of the tree's `languages` (docs/multilingual-trees.md): fixed by the
   * client's locale when the session started, or detected from the first message. Absent or `null`:
   * not fixed yet (the tree's default language is spoken).
   */
  language?: string | null;
  /** Set by a hand-back to a node: where the next interaction starts (then cleared). */
  startAt?: HandBackTarget | null;
  createdAt: string;
  updatedAt: string;
}

/** One interaction's changes, committed atomically: the new record and the history entries to append. */
export interface SessionCommit {
  record: SessionRecord;
  /** Appended after the existing history, in order. */
  history: HistoryEntry[];
  /** Version the interaction started from; the commit fails with `SESSION_CONFLICT` if it changed. */
  expectedVersion: number;
  /**
   * The last write of an interaction that holds the session's `lock`: a store may free the lock in
   * the same write (the `ReleaseLock` that follows then only wakes waiters). The engine sets it;
   * without it, the lock stays held until released.
   */
  endsInteraction?: boolean;
  /**
   * The interaction's analytics rows (docs/analytics.md), already redacted. A store that keeps them
   * writes them in the same transaction as the record and the history; others ignore them.
   */
  facts?: TurnFact[];
  /**
   * The interaction's handoff events (a handoff started or ended, docs/handoff.md). A store whose
   * outbox is on (`handoffOutbox()` was called) writes them to it in the same transaction, so a
   * transition is never committed without its webhook delivery; others ignore them.
   */
  handoffEvents?: HandoffEvent[];
  /**
   * The platform's id of the update that ran this interaction (docs/channels.md, "Exactly once").
   * The store records it in the same transaction and refuses the commit with `DUPLICATE_DELIVERY`
   * (writing nothing) when it already holds it, so a redelivered update never runs a turn twice. A
   * store with a channel store removes the update's channel inbox entry in the same transaction
   * (`expectInboxDoneInCommit`).
   */
  inbound?: InboundReceipt;
  /**
   * The turn's answer to the messaging channel it came from (docs/channels.md, "Outbound delivery"):
   * a store with a channel store (`channelStore()`) adds these rows to its outbox in the same
   * transaction, so an answer is never committed without its delivery (a crash right after the
   * commit still sends it). An id the outbox holds is kept once.
   */
  outbound?: ChannelDeliveryInput[];
}

export interface HistoryQuery {
  /** The most recent `limit` entries; all when absent. */
  limit?: number;
}

/** Releases a session lock. */
export type ReleaseLock = () => Promise<void>;

/**
 * Where sessions live. Implementations: in memory here; SQLite and PostgreSQL in their own packages.
 * All pass the same conformance suite.
 */
export interface SessionStore {
  /** The session's record, or `null` when it was never committed. */
  load(sessionId: string): Promise<SessionRecord | null>;
  /** History entries, oldest first. */
  history(sessionId: string, query?: HistoryQuery): Promise<HistoryEntry[]>;
  /** Writes the record and appends the history in one transaction, or nothing at all. */
  commit(commit: SessionCommit): Promise<void>;
  /** Deletes the session's record, history and turn facts. */
  delete(sessionId: string): Promise<void>;
  /**
   * Deletes several sessions' records, histories and turn facts in one transaction: all of them or,
   * on a failure, none (one user's data on request, docs/privacy.md). Stores without it are asked
   * to `delete` each session in turn.
   */
  deleteSessions?(sessionIds: readonly string[]): Promise<void>;
  /**
   * Stores the fact of a turn that failed (and so committed nothing else); best effort, on the
   * failure path only. Stores without turn facts omit it.
   */
  recordFacts?(facts: TurnFact[]): Promise<void>;
  /**
   * Serialises interactions on a session across processes (row or advisory lock). Stores used by
   * one process may omit it: the agent already serialises interactions in process.
   */
  lock?(sessionId: string, signal?: AbortSignal): Promise<ReleaseLock>;
  /**
   * The webhook's outbox in the same database, and from this call on the commits write their
   * `handoffEvents` to it in their own transaction (the server calls it when a webhook is set). Stores
   * without a transactional outbox omit it; the server then adds the events right after the commit.
   */
  handoffOutbox?(): HandoffOutbox;
  /**
   * Whether a commit with this inbound receipt was made (the server skips a redelivered update before
   * running it; the commit's own check is what makes it exactly once). Stores that record receipts
   * have it; `deleteSessions` and `delete` remove a session's receipts.
   */
  hasReceipt?(receipt: InboundReceipt): Promise<boolean>;
  /**
   * The store of the server's messaging channels in the same storage (docs/channels.md): channel
   * identities and the outbox. SQLite, PostgreSQL and memory have one.
   */
  channelStore?(): ChannelStore;
  /**
   * After a deletion (one user's data on request, docs/privacy.md), removes what deleted rows leave in
   * the storage where the store can: SQLite empties its WAL (freed pages are already zeroed),
   * PostgreSQL runs `VACUUM` on its tables. Optional: stores without it keep what their storage keeps.
   */
  purgeDeleted?(): Promise<void>;
  close?(): Promise<void>;
}

/** A record for a session that has never been committed. */
export function emptySessionRecord(sessionId: string, now: string): SessionRecord {
  return {
    id: sessionId,
    version: 0,
    turn: 0,
    state: {},
    lastNodeId: null,
    agentPositions: {},
    pendingMessage: null,
    constraints: null,
    failCounter: 0,
    files: [],
    createdAt: now,
    updatedAt: now,
  };
}
