/** The totals of an analytics report a variant's figures come from (`AnalyticsReport['totals']`). */
export interface VariantTotals {
  conversations: number;
  contained: number;
  containmentRate: number;
  handedOffConversations: number;
  noMatchRate: number;
  fallbackRate: number;
  turns: number;
}

/** The per-variant figures of an experiment (docs/versions.md), from the analytics of its tree version. */
export interface VariantFigures {
  treeVersion: string;
  conversations: number;
  contained: number;
  containmentRate: number;
  /** Conversations handed off, per conversation. */
  handoffRate: number;
  noMatchRate: number;
  fallbackRate: number;
  averageTurns: number;
  /** The average CSAT rating (1–5) of the sessions this version ran; `null` when none was rated. */
  csat: number | null;
  /** How many ratings `csat` averages. */
  csatRatings: number;
}

/**
 * A variant's figures from the report totals of the turns its tree version answered, and the CSAT
 * ratings (`SatisfactionRatings.list()`) of the sessions it ran (a rating's `treeVersion`): what
 * `treeagent report --experiment` prints and the server's experiment route returns.
 */
export function variantFigures(
  treeVersion: string,
  totals: VariantTotals,
  ratings: readonly { rating: number; treeVersion: string }[] = [],
): VariantFigures {
  const rated = ratings.filter((rating) => rating.treeVersion === treeVersion);
  const per = (value: number) => (totals.conversations ? value / totals.conversations : 0);
  return {
    treeVersion,
    conversations: totals.conversations,
    contained: totals.contained,
    containmentRate: totals.containmentRate,
    handoffRate: per(totals.handedOffConversations),
    noMatchRate: totals.noMatchRate,
    fallbackRate: totals.fallbackRate,
    averageTurns: per(totals.turns),
    csat: rated.length ? rated.reduce((sum, rating) => sum + rating.rating, 0) / rated.length : null,
    csatRatings: rated.length,
  };
}
