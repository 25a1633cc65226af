import { type HistoryRow, messageOf, type WidgetClient } from './widget-client';
import type { ConversationLog } from './widget-conversation-log';
import type { WidgetEvents } from './widget-events';
import type { HandoffBar } from './widget-handoff-bar';
import type { WidgetTexts } from './widget-i18n';
import { satisfactionForm } from './widget-satisfaction';

/**
 * The session's news while the page is open: operators' messages into the log, the handoff and
 * their typing on the handoff bar, and the rating asked when people hand the conversation back.
 * One stream at a time; the widget's own turns arrive with their answers, not here.
 */
export class LiveStream {
  #following: AbortController | null = null;

  constructor(
    private readonly client: WidgetClient,
    private readonly log: ConversationLog,
    private readonly bar: HandoffBar,
    private readonly texts: WidgetTexts,
    private readonly events: WidgetEvents,
  ) {}

  /** Follows the session's news, unless it already does (or there is no session yet). */
  follow(): void {
    if (this.#following || !this.client.session) return;
    const controller = new AbortController();
    this.#following = controller;
    void this.client
      .follow(controller.signal, (event) => {
        if (event.type === 'entry') this.#entry(event.entry);
        else if (event.type === 'handoff') this.#handoff(event.handoff);
        else if (event.type === 'typing') this.bar.setTypist(event.typing ? event.operatorName : null);
      })
      .finally(() => {
        if (this.#following === controller) this.#following = null;
      });
  }

  /** Stops following (another session, or none): the handoff bar hides. */
  stop(): void {
    this.#following?.abort();
    this.#following = null;
    this.bar.reset();
  }

  #entry(entry: HistoryRow): void {
    if (entry.content === null || (!entry.operator && entry.role !== 'system')) return;
    this.log.disableOptions();
    const message = messageOf(entry, '');
    this.bar.setTypist(null);
    this.log.add(message, true);
    this.events.emit('message', message);
  }

  #handoff(handoff: HandoffBar['handoff']): void {
    // People had it and no longer: ask for a rating, as the chat page does.
    // Once a conversation: the server takes one rating each (a second is refused).
    if (this.bar.handoff && !handoff && !this.client.session?.rated)
      this.log.askRating(
        satisfactionForm(this.texts, (rating, comment) => this.client.rate(rating, comment)),
      );
    this.bar.setHandoff(handoff);
    this.events.emit('handoff', handoff);
  }
}
