import type { WidgetTexts } from './widget-i18n';

/**
 * The launcher's count of answers that came while the panel was closed: on its badge, and in its
 * name for assistive technology ("Open the chat, 2 unread").
 */
export class UnreadBadge {
  #count = 0;
  readonly #showLabel: () => void;

  constructor(
    private readonly badge: HTMLElement,
    launcher: HTMLElement,
    texts: WidgetTexts,
    name: () => string,
  ) {
    this.#showLabel = texts.bind(launcher, 'aria-label', () =>
      this.#count
        ? texts.t('openChatUnread', { name: name(), count: this.#count })
        : texts.t('openChat', { name: name() }),
    );
  }

  add(): void {
    this.#count += 1;
    this.#show();
  }

  clear(): void {
    this.#count = 0;
    this.#show();
  }

  #show(): void {
    this.badge.hidden = this.#count === 0;
    this.badge.textContent = String(this.#count);
    this.#showLabel();
  }
}
