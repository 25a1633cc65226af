import type { AnalyticsStore, VariantTotals } from '@treeagent/core/adapter';

/** Conversations read per page of the analytics' conversation list (its largest page). */
const PAGE = 500;
/** The statuses of a last turn that leave a conversation uncontained (the report's definition). */
const FAILED = new Set(['no-match', 'fallback', 'error']);

/** Which conversations of a variant belong to an experiment. */
export interface ExperimentConversationsQuery {
  /** The variant's analytics tree version (`Tree.contentHash`). */
  treeVersion: string;
  /** When the experiment started: a conversation whose first turn on this version is earlier is not in it. */
  since: Date;
  /**
   * The first day (`YYYY-MM-DD`) turns of this version are read from, so that a conversation begun
   * before the experiment is recognised by its first turn: the day the version was recorded.
   */
  from: string;
}

/**
 * A variant's totals over the conversations of the experiment's period only (docs/versions.md):
 * those whose first turn on the variant's tree version is at or after the experiment's start — not
 * capped at the analytics' default 30 days. Also their session ids (for the CSAT ratings of the
 * same sessions). Reads the analytics' conversation list page by page, newest
 * activity first, and stops at the first page older than the start.
 */
export async function experimentConversations(
  analytics: AnalyticsStore,
  query: ExperimentConversationsQuery,
): Promise<{ totals: VariantTotals; sessionIds: Set<string> }> {
  const since = query.since.toISOString();
  const totals = {
    conversations: 0,
    contained: 0,
    handedOffConversations: 0,
    turns: 0,
    noMatch: 0,
    fallback: 0,
  };
  const sessionIds = new Set<string>();
  // Days compare as text (YYYY-MM-DD): the earlier of the version's day and the start's.
  const [from] = [query.from, since.slice(0, 10)].sort();
  for (let offset = 0; ; offset += PAGE) {
    const page = await analytics.conversations({
      treeVersion: query.treeVersion,
      from,
      limit: PAGE,
      offset,
    });
    for (const conversation of page) {
      if (conversation.firstAt < since) continue;
      sessionIds.add(conversation.sessionId);
      totals.conversations++;
      totals.turns += conversation.turns;
      totals.noMatch += conversation.noMatch;
      totals.fallback += conversation.fallback;
      if (conversation.handedOff > 0) totals.handedOffConversations++;
      else if (!FAILED.has(conversation.lastStatus)) totals.contained++;
    }
    // Newest activity first: once a page's oldest is before the start, no later page has any.
    if (page.length < PAGE || (page.at(-1)?.lastAt ?? '') < since) break;
  }
  const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : 0);
  return {
    totals: {
      conversations: totals.conversations,
      contained: totals.contained,
      containmentRate: ratio(totals.contained, totals.conversations),
      handedOffConversations: totals.handedOffConversations,
      noMatchRate: ratio(totals.noMatch, totals.turns),
      fallbackRate: ratio(totals.fallback, totals.turns),
      turns: totals.turns,
    },
    sessionIds,
  };
}
