import type { AgentEvent } from '@treeagent/core';
import { MESSAGE_SEPARATOR } from './completion-objects.js';

/**
 * Turns a turn's events into the `content` deltas of a streamed chat completion: generated
 * messages token by token (`text-delta`), static ones whole (`message`), several messages
 * separated as in the non-streamed `content`, so that the deltas add up to exactly that text.
 */
export class ContentDeltas {
  readonly #streamed = new Set<string>();
  #lastMessageId: string | null = null;

  /** The content to send for `event`, or `null` when it adds none. */
  next(event: AgentEvent): string | null {
    if (event.type === 'text-delta') {
      this.#streamed.add(event.messageId);
      return this.#text(event.messageId, event.delta);
    }
    if (event.type === 'message' && !this.#streamed.has(event.message.id) && event.message.content) {
      return this.#text(event.message.id, event.message.content);
    }
    return null;
  }

  #text(messageId: string, text: string): string | null {
    if (text === '') return null;
    const separator =
      this.#lastMessageId !== null && this.#lastMessageId !== messageId ? MESSAGE_SEPARATOR : '';
    this.#lastMessageId = messageId;
    return separator + text;
  }
}
