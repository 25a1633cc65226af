/**
 * `@treeagent/core/analytics`: what reads the turn facts (docs/analytics.md) — the fact of a turn and
 * how it is computed, the reports and their filters, the clustering of unmatched messages. The
 * `AnalyticsStore` contract a backend implements is in `@treeagent/core/adapter`.
 */

export type {
  AnalyticsReport,
  ConversationQuery,
  ConversationSummary,
  ReportFilter,
  ResolvedReportFilter,
  StoredTurnFact,
  TurnLabel,
  UnmatchedMessage,
} from './analytics/analytics-store.js';
export { type ClusterOptions, clusterMessages, type MessageCluster } from './analytics/cluster-messages.js';
export { dayOf, resolveReportFilter } from './analytics/report-filter.js';
export { type TurnFactInput, turnFactOf } from './analytics/turn-fact-of.js';
export type { TurnDecisionFact, TurnFact, TurnFactStatus } from './protocol/turn-fact.js';
