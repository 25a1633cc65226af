import type { AnalyticsStore } from '@treeagent/core/adapter';

/** Options of the analytics, review and personal data functions (`CreateAppOptions.analytics`). */
export interface AnalyticsOptions {
  /**
   * Where the turn facts are queried. Default: the agent's session store's `analytics()` (the SQLite
   * and PostgreSQL stores have one); without it the analytics endpoints answer 501 `NOT_CONFIGURED`.
   */
  store?: AnalyticsStore;
  /** The tree's file: where "add as chunks" writes (a JSON tree, or `<tree>.chunks.json` beside a TypeScript one). */
  treeFile?: string;
  /** The labelled utterance set of `treeagent eval`/`fit` that "add to utterances" appends to. */
  utterancesFile?: string;
  /** Called after an action wrote `treeFile` or its chunks file (`treeagent dev` reloads the tree). */
  onTreeChange?: () => void;
  /** Minimum similarity for an unmatched message to join a cluster. Default 0.6. */
  clusterSimilarity?: number;
}
