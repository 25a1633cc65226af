import type { WidgetFile } from './widget-client';
import { CLIP_ICON, element, icon } from './widget-dom';
import type { WidgetTexts } from './widget-i18n';
import { retryable, sessionGone, streamTurn, type TurnContext } from './widget-turn';
import { PendingUploads } from './widget-uploads';

/** What the composer needs from the rest of the widget. */
export interface ComposerContext extends TurnContext {
  texts: WidgetTexts;
  shadow: ShadowRoot;
  /** A turn ended, sent or not: the other tabs show it too. */
  turnEnded(sessionId: string | undefined): void;
}

/**
 * The message box under the log, and sending: the text, the files uploaded for it, Send (Enter);
 * one turn at a time, its answer streamed into the log. A failure a second try can mend keeps the
 * message, greyed, with Retry; one it cannot puts the text (and its files) back in the box, to edit.
 */
export class Composer {
  readonly #input: HTMLTextAreaElement;
  readonly #send: HTMLButtonElement;
  readonly #hint: HTMLElement;
  readonly #uploads: PendingUploads;
  readonly #showPlaceholder: () => void;
  #busy = false;
  /** The last answer waits for the user's (a form's question): the box says so. */
  #waiting = false;
  #hintTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped by a new conversation: what an older turn still brings is dropped. */
  #generation = 0;
  #inFlight: AbortController | null = null;

  constructor(
    panel: HTMLElement,
    private readonly context: ComposerContext,
  ) {
    const { texts, client } = context;
    const t = texts.t.bind(texts);
    const form = element('form', { class: 'composer' });
    const label = element('label', { class: 'sr-only', for: 'treeagent-input' });
    texts.bind(label, null, () => t('messageLabel'));
    this.#input = element('textarea', { id: 'treeagent-input', rows: '1' });
    const fileInput = element('input', { type: 'file', multiple: '', hidden: '', tabindex: '-1' });
    const attach = element('button', { type: 'button', class: 'attach' });
    attach.append(icon(CLIP_ICON));
    texts.bind(attach, 'aria-label', () => t('attachFiles'));
    this.#send = element('button', { type: 'submit', class: 'send' });
    texts.bind(this.#send, null, () => t('send'));
    this.#hint = element('p', { class: 'hint', role: 'status' });
    form.append(label, fileInput, attach, this.#input, this.#send);
    this.#uploads = new PendingUploads(texts, async (file) => {
      await context.ensureSession();
      return client.upload(file);
    });
    panel.append(this.#uploads.list, form, this.#hint);
    this.#showPlaceholder = texts.bind(this.#input, 'placeholder', () =>
      t(this.#waiting ? 'answerPlaceholder' : 'messagePlaceholder'),
    );
    this.#listen(form, fileInput, attach);
  }

  /** A turn is on its way. */
  get busy(): boolean {
    return this.#busy;
  }

  focus(): void {
    this.#input.focus();
  }

  setWaiting(value: boolean): void {
    this.#waiting = value;
    this.#showPlaceholder();
  }

  /** A new conversation: the turn still on its way belongs to the old one; stop it, show nothing of it. */
  abandonTurn(): void {
    this.#generation += 1;
    this.#inFlight?.abort();
    this.#inFlight = null;
    this.#busy = false;
    this.#send.disabled = false;
  }

  /** The files waiting to be sent go, and the box no longer waits for an answer. */
  clear(): void {
    this.#uploads.clear();
    this.setWaiting(false);
  }

  /**
   * Sends `text` (a chosen option's when `selectedOption`). `files`: those of a retried message;
   * without them (and without an option) the message is what the box holds, with its uploaded files.
   */
  async say(text: string, selectedOption?: string, files?: WidgetFile[]): Promise<void> {
    if (this.#busy) return;
    const typed = files === undefined && !selectedOption;
    if (typed) {
      if (this.#uploads.uploading) return this.#flash('waitForUploads');
      if (!text.trim()) return this.#uploads.ready().length ? this.#flash('addTextToFiles') : undefined;
    }
    const attached = files ?? (selectedOption ? [] : this.#uploads.ready());
    if (typed) this.#uploads.clear();
    const { client, texts, shadow, log } = this.context;
    clearTimeout(this.#hintTimer);
    texts.bind(this.#hint, null, () => '');
    this.#busy = true;
    this.#send.disabled = true;
    const mine = this.#generation;
    const current = () => this.#generation === mine;
    const controller = new AbortController();
    this.#inFlight = controller;
    // A chosen option's button is disabled with the others: the focus goes on to the message box.
    if (selectedOption && shadow.activeElement?.classList.contains('option')) this.#input.focus();
    log.disableOptions();
    this.setWaiting(false);
    const bubble = log.add(
      { id: '', role: 'user', text, options: [], files: attached, at: new Date().toISOString() },
      false,
    );
    try {
      await streamTurn(this.context, (value) => this.setWaiting(value), {
        text,
        selectedOption,
        files: attached,
        signal: controller.signal,
        current,
      });
    } catch (error) {
      if (!current()) return;
      if (retryable(error)) {
        // What the customer wrote stays, greyed, with the reason and Retry under it.
        bubble.classList.add('msg--failed');
        log.showError(error, () => {
          bubble.remove();
          void this.say(text, selectedOption, attached);
        });
      } else {
        // Nothing a retry could change (too long, refused): the text goes back to the box, to edit.
        bubble.remove();
        if (!selectedOption && this.#input.value === '') this.#input.value = text;
        // The files it had go back above the box too (uploaded: they go with the edited text).
        // (Not those of a session the server lost: they went with it.)
        if (typed && !sessionGone(error)) this.#uploads.restore(attached);
        log.showError(error, null);
      }
    } finally {
      if (current()) {
        this.#busy = false;
        this.#send.disabled = false;
        this.#inFlight = null;
      }
      this.context.turnEnded(client.session?.sessionId);
    }
  }

  #flash(key: 'waitForUploads' | 'addTextToFiles'): void {
    const { texts } = this.context;
    texts.bind(this.#hint, null, () => texts.t(key));
    clearTimeout(this.#hintTimer);
    this.#hintTimer = setTimeout(() => texts.bind(this.#hint, null, () => ''), 4000);
  }

  #listen(form: HTMLFormElement, fileInput: HTMLInputElement, attach: HTMLButtonElement): void {
    attach.addEventListener('click', () => fileInput.click());
    fileInput.addEventListener('change', () => {
      this.#uploads.add([...(fileInput.files ?? [])]);
      fileInput.value = '';
      this.#input.focus();
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const text = this.#input.value;
      if (this.#busy || this.#uploads.uploading || !text.trim()) return void this.say(text);
      this.#input.value = '';
      void this.say(text);
    });
    this.#input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        form.requestSubmit();
      }
    });
  }
}
