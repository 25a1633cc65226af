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
  /** CSAT is not collected in the turn facts yet: `null`. */
  csat: number | null;
}

/**
 * A variant's figures from the report totals of the turns its tree version answered: what
 * `treeagent report --experiment` prints and the server's experiment route returns.
 */
export function variantFigures(treeVersion: string, totals: VariantTotals): VariantFigures {
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
    csat: null,
  };
}
