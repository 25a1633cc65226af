import type { TurnDecisionFact, TurnFact, TurnFactStatus } from '../protocol/turn-fact.js';
import type {
  AnalyticsReport,
  ConversationQuery,
  ConversationSummary,
  ReportFilter,
  StoredTurnFact,
  TurnLabel,
  UnmatchedMessage,
} from './analytics-store.js';
import { dayOf, resolveReportFilter } from './report-filter.js';

/**
 * Runs one statement with `?` placeholders and returns its rows. Stores wrap their driver in it
 * (PostgreSQL numbers the placeholders); every statement here is the same text on both.
 */
export type SqlRunner = (sql: string, params: readonly unknown[]) => Promise<Record<string, unknown>[]>;

/** The SQL flavour: only `least`/`greatest` differ (`min`/`max` with two arguments in SQLite). */
export type SqlDialect = 'sqlite' | 'postgres';

/** The columns of the turn-facts table, in the order `turnFactValues` returns them. */
export const TURN_FACT_COLUMNS = [
  'session_id',
  'turn',
  'at',
  'day',
  'tree_version',
  'status',
  'error_code',
  'node_id',
  'agent_id',
  'best_similarity',
  'min_margin',
  'low_node_id',
  'low_child_id',
  'low_runner_up_id',
  'fail_counter',
  'latency_ms',
  'input_tokens',
  'output_tokens',
  'message',
  'decisions',
] as const;

/** A turn fact as the values of `TURN_FACT_COLUMNS` (the decisions as JSON text). */
export function turnFactValues(fact: TurnFact): unknown[] {
  return [
    fact.sessionId,
    fact.turn,
    fact.at,
    dayOf(fact.at),
    fact.treeVersion,
    fact.status,
    fact.errorCode,
    fact.nodeId,
    fact.agentId,
    fact.bestSimilarity,
    fact.minMargin,
    fact.lowMarginNodeId,
    fact.lowMarginChildId,
    fact.lowMarginRunnerUpId,
    fact.failCounter,
    fact.latencyMs,
    fact.inputTokens,
    fact.outputTokens,
    fact.message,
    JSON.stringify(fact.decisions),
  ];
}

const FAILED = `('no-match', 'fallback', 'error')`;
const count = (value: unknown) => Number(value ?? 0);
const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : 0);
const nullableNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/**
 * Analytics and review over a turn-facts table in SQL (docs/analytics.md): what the SQLite and
 * PostgreSQL stores share, so both give the same numbers. Every query is bounded by the filter's
 * day range (indexed) or a session id, and returns aggregates or a page, never every turn.
 */
export class TurnFactsSql {
  readonly #run: SqlRunner;
  readonly #table: string;
  readonly #dialect: SqlDialect;
  readonly #now: () => Date;

  /** @param table The quoted, qualified table name. */
  constructor(run: SqlRunner, table: string, dialect: SqlDialect, now: () => Date = () => new Date()) {
    this.#run = run;
    this.#table = table;
    this.#dialect = dialect;
    this.#now = now;
  }

  #where(filter: ReportFilter): {
    where: string;
    params: unknown[];
    resolved: ReturnType<typeof resolveReportFilter>;
  } {
    const resolved = resolveReportFilter(filter, this.#now());
    const params: unknown[] = [resolved.from, resolved.to];
    let where = 'day >= ? AND day <= ?';
    if (resolved.treeVersion !== null) {
      where += ' AND tree_version = ?';
      params.push(resolved.treeVersion);
    }
    return { where, params, resolved };
  }

  async report(filter: ReportFilter = {}): Promise<AnalyticsReport> {
    const { where, params, resolved } = this.#where(filter);
    const t = this.#table;
    const sum = (condition: string) => `sum(CASE WHEN ${condition} THEN 1 ELSE 0 END)`;
    const [least, greatest] = this.#dialect === 'sqlite' ? ['min', 'max'] : ['least', 'greatest'];
    const [totals, conversations, perDay, perNode, perAgent, lowMargin, versions] = await Promise.all([
      this.#run(
        `SELECT count(*) AS turns, count(DISTINCT session_id) AS conversations,
                ${sum(`status = 'answered'`)} AS answered, ${sum(`status = 'no-match'`)} AS no_match,
                ${sum(`status = 'fallback'`)} AS fallback, ${sum(`status = 'error'`)} AS error,
                ${sum(`status = 'handed-off'`)} AS handed_off, ${sum('min_margin < ?')} AS low_margin,
                sum(latency_ms) AS latency_sum, max(latency_ms) AS latency_max,
                sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens
           FROM ${t} WHERE ${where}`,
        [resolved.lowMargin, ...params],
      ),
      this.#run(
        `SELECT count(*) AS conversations,
                ${sum(`handed = 0 AND status NOT IN ${FAILED}`)} AS contained,
                ${sum(`handed = 0 AND status IN ${FAILED}`)} AS abandoned,
                sum(handed) AS handed_off
           FROM ${this.#lastTurns(where)} AS last_turns`,
        params,
      ),
      this.#run(
        `SELECT day, count(DISTINCT session_id) AS conversations, count(*) AS turns,
                ${sum(`status = 'no-match'`)} AS no_match, ${sum(`status = 'fallback'`)} AS fallback
           FROM ${t} WHERE ${where} GROUP BY day ORDER BY day`,
        params,
      ),
      this.#run(
        `SELECT node_id, count(*) AS turns FROM ${t} WHERE ${where} AND node_id IS NOT NULL
          GROUP BY node_id ORDER BY turns DESC, node_id`,
        params,
      ),
      this.#run(
        `SELECT agent_id, count(*) AS turns FROM ${t} WHERE ${where} AND agent_id IS NOT NULL
          GROUP BY agent_id ORDER BY turns DESC, agent_id`,
        params,
      ),
      this.#run(
        `SELECT low_node_id AS node_id, ${least}(low_child_id, low_runner_up_id) AS a,
                ${greatest}(low_child_id, low_runner_up_id) AS b, count(*) AS turns, avg(min_margin) AS margin
           FROM ${t} WHERE ${where} AND min_margin < ? AND low_child_id IS NOT NULL AND low_runner_up_id IS NOT NULL
          GROUP BY low_node_id, ${least}(low_child_id, low_runner_up_id), ${greatest}(low_child_id, low_runner_up_id)
          ORDER BY turns DESC, node_id, a, b LIMIT 20`,
        [...params, resolved.lowMargin],
      ),
      this.#run(
        `SELECT tree_version, count(*) AS turns, min(at) AS first_at, max(at) AS last_at
           FROM ${t} WHERE day >= ? AND day <= ? GROUP BY tree_version ORDER BY first_at, tree_version`,
        [resolved.from, resolved.to],
      ),
    ]);
    const row = totals[0] ?? {};
    const turns = count(row.turns);
    const latency = await this.#percentiles(where, params, turns);
    const last = conversations[0] ?? {};
    const conversationCount = count(last.conversations);
    const contained = count(last.contained);
    const noMatch = count(row.no_match);
    const fallback = count(row.fallback);
    const error = count(row.error);
    const lowMarginTurns = count(row.low_margin);
    return {
      filter: resolved,
      totals: {
        conversations: conversationCount,
        turns,
        answered: count(row.answered),
        noMatch,
        fallback,
        error,
        handedOff: count(row.handed_off),
        contained,
        abandoned: count(last.abandoned),
        handedOffConversations: count(last.handed_off),
        containmentRate: ratio(contained, conversationCount),
        noMatchRate: ratio(noMatch, turns),
        fallbackRate: ratio(fallback, turns),
        errorRate: ratio(error, turns),
        lowMarginTurns,
        lowMarginRate: ratio(lowMarginTurns, turns),
        inputTokens: count(row.input_tokens),
        outputTokens: count(row.output_tokens),
      },
      perDay: perDay.map((day) => ({
        day: String(day.day),
        conversations: count(day.conversations),
        turns: count(day.turns),
        noMatch: count(day.no_match),
        fallback: count(day.fallback),
      })),
      perNode: perNode.map((node) => ({ nodeId: count(node.node_id), turns: count(node.turns) })),
      perAgent: perAgent.map((agent) => ({ agentId: count(agent.agent_id), turns: count(agent.turns) })),
      lowMargin: lowMargin.map((pair) => ({
        nodeId: count(pair.node_id),
        childIds: [count(pair.a), count(pair.b)],
        turns: count(pair.turns),
        averageMargin: round(Number(pair.margin), 4),
      })),
      latency: {
        ...latency,
        mean: round(ratio(Number(row.latency_sum ?? 0), turns), 1),
        max: round(Number(row.latency_max ?? 0), 1),
      },
      versions: versions.map((version) => ({
        treeVersion: String(version.tree_version),
        turns: count(version.turns),
        firstAt: String(version.first_at),
        lastAt: String(version.last_at),
      })),
    };
  }

  /** Nearest-rank percentiles in one sorted pass: the value at rank ⌈p·n⌉. */
  /**
   * Each conversation's last turn in the range (by turn, then time: a retry comes after its failed
   * try) with its status, and whether it had a handoff. SQLite: one GROUP BY whose bare `status`
   * comes from the row of the only `max()` (SQLite's documented rule), 2.4× faster than the window
   * functions over many turns (bench/BEFORE-AFTER.md); PostgreSQL: the window functions.
   */
  #lastTurns(where: string): string {
    const t = this.#table;
    if (this.#dialect === 'sqlite') {
      // `at` is a fixed-width ISO time: text order is time order; the turn is padded to match.
      return `(SELECT status, max(printf('%010d', turn) || at) AS last_key,
                      CASE WHEN sum(status = 'handed-off') > 0 THEN 1 ELSE 0 END AS handed
                 FROM ${t} WHERE ${where} GROUP BY session_id)`;
    }
    return `(SELECT status, handed FROM (
               SELECT status,
                      row_number() OVER (PARTITION BY session_id ORDER BY turn DESC, at DESC) AS position,
                      max(CASE WHEN status = 'handed-off' THEN 1 ELSE 0 END) OVER (PARTITION BY session_id) AS handed
                 FROM ${t} WHERE ${where}) AS ranked
             WHERE position = 1)`;
  }

  async #percentiles(
    where: string,
    params: unknown[],
    turns: number,
  ): Promise<Pick<AnalyticsReport['latency'], 'p50' | 'p90' | 'p95' | 'p99'>> {
    const points = { p50: 0.5, p90: 0.9, p95: 0.95, p99: 0.99 } as const;
    if (turns === 0) return { p50: 0, p90: 0, p95: 0, p99: 0 };
    const ranks = Object.values(points).map((p) => Math.max(1, Math.ceil(p * turns)));
    const rows = await this.#run(
      `SELECT position, latency_ms FROM (
         SELECT latency_ms, row_number() OVER (ORDER BY latency_ms) AS position FROM ${this.#table} WHERE ${where}
       ) AS ranked WHERE position IN (?, ?, ?, ?)`,
      [...params, ...ranks],
    );
    const byRank = new Map(rows.map((row) => [count(row.position), Number(row.latency_ms)]));
    const at = (index: number) => round(byRank.get(ranks[index]!) ?? 0, 1);
    return { p50: at(0), p90: at(1), p95: at(2), p99: at(3) };
  }

  async unmatched(filter: ReportFilter & { limit?: number } = {}): Promise<UnmatchedMessage[]> {
    const { where, params } = this.#where(filter);
    const limit = clampLimit(filter.limit, 2000, 10_000);
    const rows = await this.#run(
      `SELECT message, count(*) AS n, max(at) AS last_at FROM ${this.#table}
        WHERE ${where} AND status IN ('no-match', 'fallback') AND error_code IS NULL
        GROUP BY message ORDER BY n DESC, last_at DESC, message LIMIT ?`,
      [...params, limit],
    );
    return rows.map((row) => ({
      message: String(row.message),
      count: count(row.n),
      lastAt: String(row.last_at),
    }));
  }

  async conversations(query: ConversationQuery = {}): Promise<ConversationSummary[]> {
    const { where, params } = this.#where(query);
    const having: string[] = [];
    const havingParams: unknown[] = [];
    if (query.text) {
      having.push(`sum(CASE WHEN lower(message) LIKE ? ESCAPE '\\' THEN 1 ELSE 0 END) > 0`);
      havingParams.push(`%${query.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    }
    if (query.nodeId !== undefined) {
      having.push('sum(CASE WHEN node_id = ? THEN 1 ELSE 0 END) > 0');
      havingParams.push(query.nodeId);
    }
    if (query.status) {
      having.push('sum(CASE WHEN status = ? THEN 1 ELSE 0 END) > 0');
      havingParams.push(query.status);
    }
    const limit = clampLimit(query.limit, 50, 500);
    const offset = Math.max(0, Math.floor(query.offset ?? 0));
    const sum = (condition: string) => `sum(CASE WHEN ${condition} THEN 1 ELSE 0 END)`;
    const rows = await this.#run(
      `SELECT c.*, 
              (SELECT status FROM ${this.#table} l WHERE l.session_id = c.session_id ORDER BY turn DESC, at DESC LIMIT 1) AS last_status,
              (SELECT message FROM ${this.#table} f WHERE f.session_id = c.session_id ORDER BY turn, at LIMIT 1) AS first_message
         FROM (SELECT session_id, min(at) AS first_at, max(at) AS last_at, count(*) AS turns,
                      ${sum(`status = 'no-match'`)} AS no_match, ${sum(`status = 'fallback'`)} AS fallback,
                      ${sum(`status = 'error'`)} AS error, ${sum(`status = 'handed-off'`)} AS handed_off
                 FROM ${this.#table} WHERE ${where} GROUP BY session_id
                 ${having.length ? `HAVING ${having.join(' AND ')}` : ''}
                ORDER BY last_at DESC, session_id LIMIT ? OFFSET ?) AS c
        ORDER BY c.last_at DESC, c.session_id`,
      [...params, ...havingParams, limit, offset],
    );
    return rows.map((row) => ({
      sessionId: String(row.session_id),
      firstAt: String(row.first_at),
      lastAt: String(row.last_at),
      turns: count(row.turns),
      noMatch: count(row.no_match),
      fallback: count(row.fallback),
      error: count(row.error),
      handedOff: count(row.handed_off),
      lastStatus: String(row.last_status) as TurnFactStatus,
      firstMessage: String(row.first_message ?? ''),
    }));
  }

  async turns(sessionId: string): Promise<StoredTurnFact[]> {
    const rows = await this.#run(
      `SELECT ${TURN_FACT_COLUMNS.join(', ')}, label FROM ${this.#table} WHERE session_id = ? ORDER BY turn, at`,
      [sessionId],
    );
    return rows.map(factFromRow);
  }

  async label(sessionId: string, turn: number, label: string | null, at: string): Promise<boolean> {
    const rows = await this.#run(
      `UPDATE ${this.#table} SET label = ?, labelled_at = ? WHERE session_id = ? AND turn = ? RETURNING turn`,
      [label, label === null ? null : at, sessionId, turn],
    );
    return rows.length > 0;
  }

  async labels(): Promise<TurnLabel[]> {
    const rows = await this.#run(
      `SELECT session_id, turn, message, label, labelled_at FROM ${this.#table}
        WHERE label IS NOT NULL ORDER BY labelled_at, session_id, turn`,
      [],
    );
    return rows.map((row) => ({
      sessionId: String(row.session_id),
      turn: count(row.turn),
      message: String(row.message),
      label: String(row.label),
      labelledAt: String(row.labelled_at),
    }));
  }

  async purgeFacts(before: string, limit?: number): Promise<number> {
    // The day bounds the scan by the report index (day first); `at` is exact within the last day.
    const day = dayOf(before);
    if (limit === undefined) {
      const rows = await this.#run(`DELETE FROM ${this.#table} WHERE day <= ? AND at < ? RETURNING turn`, [
        day,
        before,
      ]);
      return rows.length;
    }
    const rows = await this.#run(
      `DELETE FROM ${this.#table} WHERE (session_id, turn, at) IN (
         SELECT session_id, turn, at FROM ${this.#table} WHERE day <= ? AND at < ? LIMIT ?)
       RETURNING turn`,
      [day, before, Math.max(1, Math.trunc(limit))],
    );
    return rows.length;
  }
}

function factFromRow(row: Record<string, unknown>): StoredTurnFact {
  const decisions = typeof row.decisions === 'string' ? JSON.parse(row.decisions) : row.decisions;
  return {
    sessionId: String(row.session_id),
    turn: count(row.turn),
    at: String(row.at),
    treeVersion: String(row.tree_version),
    status: String(row.status) as TurnFactStatus,
    errorCode: row.error_code === null || row.error_code === undefined ? null : String(row.error_code),
    nodeId: nullableNumber(row.node_id),
    agentId: nullableNumber(row.agent_id),
    bestSimilarity: nullableNumber(row.best_similarity),
    minMargin: nullableNumber(row.min_margin),
    lowMarginNodeId: nullableNumber(row.low_node_id),
    lowMarginChildId: nullableNumber(row.low_child_id),
    lowMarginRunnerUpId: nullableNumber(row.low_runner_up_id),
    failCounter: count(row.fail_counter),
    latencyMs: Number(row.latency_ms),
    inputTokens: nullableNumber(row.input_tokens),
    outputTokens: nullableNumber(row.output_tokens),
    message: String(row.message),
    decisions: (decisions ?? []) as TurnDecisionFact[],
    label: row.label === null || row.label === undefined ? null : String(row.label),
  };
}

function clampLimit(value: number | undefined, fallback: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.max(1, Math.min(max, Math.floor(value)));
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
