import type { HistoryEntry } from '../protocol/history-entry.js';

/** Loads the most recent history entries of a session, oldest first. */
export type HistoryLoader = (limit: number | undefined) => Promise<HistoryEntry[]>;

export interface HistoryOptions {
  /** At most this many entries, the most recent ones. */
  limit?: number;
}

/**
 * Access to the conversation for callbacks (docs/concepts.md §9, Memory Agent). History is read lazily from
 * the session store, so a turn that does not look at it costs nothing however long the conversation.
 */
export class MemoryAgent {
  readonly #load: HistoryLoader;
  readonly #current: HistoryEntry[];

  /** @param current Entries of the interaction in progress (the user's message, then each message sent). */
  constructor(load: HistoryLoader, current: HistoryEntry[]) {
    this.#load = load;
    this.#current = current;
  }

  /** The conversation so far, oldest first, including the interaction in progress. */
  async history(options: HistoryOptions = {}): Promise<HistoryEntry[]> {
    const { limit } = options;
    const current = this.#current;
    if (limit !== undefined && limit <= current.length) return current.slice(current.length - limit);
    const previous = await this.#load(limit === undefined ? undefined : limit - current.length);
    return [...previous, ...current];
  }

  /** Entries of the interaction in progress. */
  get currentTurn(): readonly HistoryEntry[] {
    return this.#current;
  }

  /** The last `limit` entries as `role: text` lines, ready for a prompt. */
  async transcript(limit = 10): Promise<string> {
    const entries = await this.history({ limit });
    return entries
      .filter((entry) => entry.content !== null)
      .map((entry) => `${entry.role}: ${entry.content}`)
      .join('\n');
  }
}
