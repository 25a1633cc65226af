import type { ExploreConstraintsData } from '../protocol/explore-constraints-data.js';
import type { Filter } from '../protocol/filter.js';
import { Blacklist } from './blacklist.js';

/** Limits on the chunks exploration considers (docs/concepts.md §9, `AiExploreConstraints`). */
export class ExploreConstraints {
  blacklist: Blacklist;
  /** Qdrant-style filter on each chunk's `extra`; `null` lets every chunk through. */
  filter: Filter | null;
  /** With `true`, blacklist and filter survive the end of the interaction (docs/concepts.md §10, Decisions on `keep`). */
  keep: boolean;

  constructor(data?: ExploreConstraintsData | null) {
    this.blacklist = new Blacklist(data?.blacklist);
    this.filter = data?.filter ?? null;
    this.keep = data?.keep ?? false;
  }

  toJSON(): ExploreConstraintsData {
    return { blacklist: this.blacklist.toJSON(), filter: this.filter, keep: this.keep };
  }
}

/** How exploration picks the next node (docs/concepts.md §9, `AiExploreStrategy`). */
export class ExploreStrategy {
  /** The text embedded to compute similarities; set to `input.extended` at the start of every interaction. */
  direction: string;
  constraints: ExploreConstraints;

  constructor(direction: string, constraints?: ExploreConstraintsData | null) {
    this.direction = direction;
    this.constraints = new ExploreConstraints(constraints);
  }
}
