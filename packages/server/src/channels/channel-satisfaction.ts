import type { HistoryEntry } from '@treeagent/core';
import type { ChannelPayload, HandoffQueue, SatisfactionRatings } from '@treeagent/core/adapter';
import { serverMessage } from '../i18n/server-messages.js';

/** What the channels need to ask for and keep ratings: the handoff queue and the ratings store. */
export interface ChannelSatisfactionStores {
  queue: HandoffQueue;
  ratings: SatisfactionRatings;
  /** The tree version a rating is kept with (the running tree's). */
  treeVersion: () => string;
}

const RATINGS = ['1', '2', '3', '4', '5'];
/** How long after the rating a free-text message is taken as its comment. */
const COMMENT_WITHIN_MS = 10 * 60_000;

/**
 * CSAT on the messaging channels: when the operator hands the conversation back or closes it, the
 * user is asked for a rating with the buttons 1–5 (the channel's options: native buttons where the
 * platform has them, a numbered list elsewhere); the chosen number is kept as the rating, and a
 * free-text message right after it (within ten minutes) as its comment. Neither runs a turn.
 */
export class ChannelSatisfaction {
  readonly #stores: ChannelSatisfactionStores;

  constructor(stores: ChannelSatisfactionStores) {
    this.#stores = stores;
  }

  /** The question to send after an operator's action, when it ended the handoff with people. */
  questionAfter(entries: readonly HistoryEntry[], language: string): ChannelPayload[] {
    const ended = entries.some(
      (entry) => entry.handoff?.type === 'end' && entry.handoff.outcome !== 'user-returned',
    );
    if (!ended) return [];
    return [{ type: 'text', text: serverMessage(language, 'satisfaction.question'), options: [...RATINGS] }];
  }

  /**
   * A message of a session whose handoff ended: the rating (a button pressed, or the number
   * written) or, after it, the comment; returns what to answer, or `null` when the message is the
   * agent's to answer.
   */
  async receive(
    sessionId: string,
    text: string,
    selectedOption: string | null,
    languageOf: () => Promise<string>,
  ): Promise<ChannelPayload[] | null> {
    const entry = await this.#stores.queue.get(sessionId);
    if (entry?.status !== 'closed') return null;
    const rated = (await this.#stores.ratings.list(new Date(Date.now() - COMMENT_WITHIN_MS))).find(
      (rating) => rating.sessionId === sessionId,
    );
    const chosen = (selectedOption ?? text).trim();
    const comment = text.trim().slice(0, 2000);
    // The platform delivered the rating or the comment again: taken already, nothing to answer.
    if (rated && ((RATINGS.includes(chosen) && Number(chosen) === rated.rating) || rated.comment === comment))
      return [];
    if (!rated && RATINGS.includes(chosen)) {
      const added = await this.#stores.ratings.add({
        sessionId,
        rating: Number(chosen) as 1 | 2 | 3 | 4 | 5,
        comment: null,
        operatorId: entry.operator?.id ?? null,
        team: entry.queue,
        treeVersion: this.#stores.treeVersion(),
        at: new Date(),
      });
      if (added)
        return [
          { type: 'text', text: serverMessage(await languageOf(), 'satisfaction.thanks'), options: [] },
        ];
      return null;
    }
    if (rated && rated.comment === null && !selectedOption && comment && this.#stores.ratings.comment) {
      if (await this.#stores.ratings.comment(sessionId, comment))
        return [
          {
            type: 'text',
            text: serverMessage(await languageOf(), 'satisfaction.commentThanks'),
            options: [],
          },
        ];
    }
    return null;
  }
}
