import { WidgetError, type WidgetMessage } from './widget-client';
import { element } from './widget-dom';
import type { WidgetEvents } from './widget-events';
import type { WidgetTexts } from './widget-i18n';
import { type MessageActions, renderMessage } from './widget-message';
import type { UnreadBadge } from './widget-unread';

/**
 * The conversation as the panel shows it: its messages (each scrolled into view; an answer while
 * the panel is closed counts on the launcher's badge), their options, the failures with Retry, and
 * the rating asked after people had the conversation.
 */
export class ConversationLog {
  constructor(
    private readonly log: HTMLElement,
    private readonly panel: HTMLElement,
    private readonly texts: WidgetTexts,
    private readonly unread: UnreadBadge,
    private readonly events: WidgetEvents,
    private readonly actions: MessageActions,
  ) {}

  /** `enabledOptions`: the message's options can still be chosen (the last message's). */
  add(message: WidgetMessage, enabledOptions: boolean): HTMLElement {
    const { bubble, options: group } = renderMessage(message, this.actions, enabledOptions);
    this.log.append(bubble);
    if (group) this.log.append(group);
    this.#scrollToEnd();
    if (message.role !== 'user' && this.panel.hidden) this.unread.add();
    return bubble;
  }

  /** A newer message came: the options of the earlier ones can no longer be chosen. */
  disableOptions(): void {
    for (const button of this.log.querySelectorAll<HTMLButtonElement>('.option')) button.disabled = true;
  }

  /**
   * A failure, with Retry under it when `retry` can mend it; the site's `error` event gets its code.
   * `fallback`: the widget's own words for the failure, when the server has none for customers.
   */
  showError(
    error: unknown,
    retry: (() => void) | null,
    fallback = () =>
      this.texts.t(error instanceof WidgetError && error.status > 0 ? 'notSent' : 'unreachable'),
  ): void {
    const t = this.texts.t.bind(this.texts);
    const problem = error instanceof WidgetError ? error : new WidgetError('NETWORK', t('unreachable'), 0);
    const row = element('div', { class: 'error', role: 'alert' });
    // The server's words for the customer when it has some; never its words for developers. Bound,
    // so `setLocale` rewrites the widget's own words (the server's stay as it wrote them).
    this.texts.bind(row.appendChild(element('span')), null, () => problem.userMessage ?? fallback());
    if (retry) {
      const again = element('button', { type: 'button' });
      this.texts.bind(again, null, () => t('retry'));
      again.addEventListener('click', () => {
        row.remove();
        retry();
      });
      row.append(again);
    }
    this.log.append(row);
    this.#scrollToEnd();
    this.events.emit('error', { code: problem.code, message: problem.message });
  }

  /** Asks for a rating: it replaces a question not answered yet (a form still with its Send). */
  askRating(form: HTMLElement): void {
    for (const asked of this.log.querySelectorAll('form.rate'))
      if (asked.querySelector('.rate-send')) asked.remove();
    this.log.append(form);
    this.#scrollToEnd();
  }

  /**
   * The conversation's history in place of what the log shows. A rating asked while the panel was
   * closed (its history not loaded yet) stays, after the history.
   */
  replaceWithHistory(history: readonly WidgetMessage[]): void {
    const rating = [...this.log.querySelectorAll('form.rate')];
    this.log.replaceChildren();
    history.forEach((message, index) => {
      this.add(message, index === history.length - 1);
    });
    this.log.append(...rating);
  }

  clear(): void {
    this.log.replaceChildren();
  }

  #scrollToEnd(): void {
    this.log.scrollTop = this.log.scrollHeight;
  }
}
