import type { TurnFact, TurnFactStatus } from '../protocol/turn-fact.js';

/** Which turns a report covers: a range of UTC days (inclusive) and, optionally, one tree version. */
export interface ReportFilter {
  /** First day, `YYYY-MM-DD` (UTC). Default: 30 days before `to`. */
  from?: string;
  /** Last day, `YYYY-MM-DD` (UTC), included. Default: today. */
  to?: string;
  /** Only turns answered by this tree version (`Tree.contentHash`). */
  treeVersion?: string;
  /** A decision whose margin to the runner-up is below this is "low margin". Default 0.05. */
  lowMargin?: number;
}

/** A filter with its defaults applied. */
export interface ResolvedReportFilter {
  from: string;
  to: string;
  treeVersion: string | null;
  lowMargin: number;
}

/** The figures of `treeagent report` and the Analytics page (docs/analytics.md defines each). */
export interface AnalyticsReport {
  filter: ResolvedReportFilter;
  totals: {
    conversations: number;
    turns: number;
    answered: number;
    noMatch: number;
    fallback: number;
    error: number;
    handedOff: number;
    /** Conversations that ended without a handoff and whose last turn was answered. */
    contained: number;
    /** Conversations whose last turn was a no match, a fallback or an error (and no handoff). */
    abandoned: number;
    /** Conversations with a handoff. */
    handedOffConversations: number;
    /** contained ÷ conversations (0 when there are none); the rates below are ÷ turns. */
    containmentRate: number;
    noMatchRate: number;
    fallbackRate: number;
    errorRate: number;
    /** Turns with a decision whose margin is below `filter.lowMargin`. */
    lowMarginTurns: number;
    lowMarginRate: number;
    inputTokens: number;
    outputTokens: number;
  };
  perDay: { day: string; conversations: number; turns: number; noMatch: number; fallback: number }[];
  perNode: { nodeId: number; turns: number }[];
  perAgent: { agentId: number; turns: number }[];
  /** The sibling pairs most often decided by less than `filter.lowMargin`, most frequent first (20 at most). */
  lowMargin: { nodeId: number; childIds: [number, number]; turns: number; averageMargin: number }[];
  /** Turn latency in milliseconds: nearest-rank percentiles, mean and max (0 when there are no turns). */
  latency: { p50: number; p90: number; p95: number; p99: number; mean: number; max: number };
  /** Tree versions seen in the date range (whatever `treeVersion` says), oldest first. */
  versions: { treeVersion: string; turns: number; firstAt: string; lastAt: string }[];
}

/** A message that ended in no match or a fallback, with how often it was sent. */
export interface UnmatchedMessage {
  message: string;
  count: number;
  lastAt: string;
}

/** Conversation review: which conversations to list. */
export interface ConversationQuery extends ReportFilter {
  /** Conversations with a user message containing this text (case-insensitive). */
  text?: string;
  /** Conversations with a turn that ended on this node. */
  nodeId?: number;
  /** Conversations with a turn of this status. */
  status?: TurnFactStatus;
  /** Page size (default 50, at most 500) and offset. */
  limit?: number;
  offset?: number;
}

/** One conversation in the review list. */
export interface ConversationSummary {
  sessionId: string;
  firstAt: string;
  lastAt: string;
  turns: number;
  noMatch: number;
  fallback: number;
  error: number;
  handedOff: number;
  /** Status of the last turn. */
  lastStatus: TurnFactStatus;
  /** First user message. */
  firstMessage: string;
}

/** A turn labelled in review: the node it should have reached (`none` for out of scope). */
export interface TurnLabel {
  sessionId: string;
  turn: number;
  message: string;
  /** A node name, or `none`. */
  label: string;
  labelledAt: string;
}

/** A stored turn fact, with its review label when it has one. */
export interface StoredTurnFact extends TurnFact {
  label: string | null;
}

/**
 * The queries of analytics and review over the stored turn facts (docs/analytics.md). Each is SQL in
 * the SQLite and PostgreSQL stores: nothing loads every session. Both pass the same suite
 * (`describeAnalyticsStore` in `@treeagent/core/conformance`) with the same numbers.
 */
export interface AnalyticsStore {
  report(filter?: ReportFilter): Promise<AnalyticsReport>;
  /** Distinct unmatched messages (no match, or a fallback without an error), most frequent first. */
  unmatched(filter?: ReportFilter & { limit?: number }): Promise<UnmatchedMessage[]>;
  conversations(query?: ConversationQuery): Promise<ConversationSummary[]>;
  /** The facts of one conversation, by turn. */
  turns(sessionId: string): Promise<StoredTurnFact[]>;
  /** Labels a turn with the node it should have reached (`none`: out of scope); `null` removes the label. Returns false when there is no such turn. */
  label(sessionId: string, turn: number, label: string | null, at: string): Promise<boolean>;
  /** Every labelled turn, oldest label first. */
  labels(): Promise<TurnLabel[]>;
  /**
   * Deletes the facts of turns before `before` (an ISO time), at most `limit` of them when given
   * (the retention sweep deletes in batches, so no write waits long); returns how many.
   */
  purgeFacts(before: string, limit?: number): Promise<number>;
}
