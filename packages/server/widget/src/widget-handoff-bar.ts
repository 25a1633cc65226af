import type { WidgetTexts } from './widget-i18n';

/** The conversation's handoff to people, as the live stream reports it. */
export type Handoff = { status: 'waiting' | 'claimed'; operatorName: string | null } | null;

/**
 * The lines above the message box while people have the conversation: the handoff's (waiting for
 * an operator, an operator answering) and the operator's typing. Their texts are bound, so
 * `setLocale` rewrites them too.
 */
export class HandoffBar {
  #handoff: Handoff = null;
  #typist: string | null = null;
  readonly #showHandoff: () => void;
  readonly #showTyping: () => void;

  constructor(
    private readonly status: HTMLElement,
    private readonly typing: HTMLElement,
    texts: WidgetTexts,
  ) {
    const t = texts.t.bind(texts);
    this.#showHandoff = texts.bind(status, null, () =>
      this.#handoff === null
        ? ''
        : this.#handoff.status === 'waiting'
          ? t('waitingForOperator')
          : t('operatorAnswering', { name: this.#handoff.operatorName ?? t('anOperator') }),
    );
    this.#showTyping = texts.bind(typing, null, () =>
      this.#typist ? t('operatorTyping', { name: this.#typist }) : '',
    );
  }

  get handoff(): Handoff {
    return this.#handoff;
  }

  setHandoff(handoff: Handoff): void {
    this.#handoff = handoff;
    this.status.hidden = handoff === null;
    this.#showHandoff();
  }

  /** `typist`: the operator typing, or null when no one is. */
  setTypist(typist: string | null): void {
    this.#typist = typist;
    this.typing.hidden = typist === null;
    this.#showTyping();
  }

  /** The live stream stopped: both lines hide (a new stream tells the handoff again). */
  reset(): void {
    this.#handoff = null;
    this.#typist = null;
    this.status.hidden = true;
    this.typing.hidden = true;
  }
}
