import { WidgetError, type WidgetFile } from './widget-client';
import { element } from './widget-dom';
import type { WidgetTexts } from './widget-i18n';

interface Pending {
  size: number;
  status: 'uploading' | 'ready' | 'failed';
  metadata: WidgetFile | null;
  item: HTMLLIElement;
  show(text: () => string): void;
}

/**
 * The files of the next message, listed above the message box: each is uploaded as soon as it is
 * chosen (so a refused file says why at once), and can be removed before sending.
 */
export class PendingUploads {
  readonly list: HTMLUListElement;
  #entries: Pending[] = [];

  constructor(
    private readonly texts: WidgetTexts,
    private readonly upload: (file: File) => Promise<WidgetFile>,
  ) {
    this.list = element('ul', { class: 'pending' });
    texts.bind(this.list, 'aria-label', () => texts.t('filesToSend'));
  }

  add(files: readonly File[]): void {
    for (const file of files) {
      const entry = this.#entry(file.name, file.size);
      this.upload(file).then(
        (metadata) => this.#ready(entry, metadata),
        (error: unknown) => {
          entry.status = 'failed';
          entry.item.dataset.status = 'failed';
          entry.show(() => this.texts.t('uploadFailed', { reason: this.#reason(error) }));
        },
      );
    }
  }

  /** Lists again files already uploaded (a message the server refused: they go with the next try). */
  restore(files: readonly WidgetFile[]): void {
    for (const file of files) this.#ready(this.#entry(file.name, file.size ?? 0), file);
  }

  /**
   * Why an upload failed, for the customer: the server's words for customers when it has some, else
   * the widget's own (never the API's English for developers, e.g. "larger than 10485760 bytes").
   */
  #reason(error: unknown): string {
    if (!(error instanceof WidgetError)) return this.texts.t('uploadError');
    if (error.userMessage) return error.userMessage;
    const max = error.details?.maxBytes;
    if (error.status === 413 && typeof max === 'number')
      return this.texts.t('uploadTooLarge', { size: this.texts.bytes(max) });
    return this.texts.t('uploadError');
  }

  #ready(entry: Pending, metadata: WidgetFile): void {
    entry.status = 'ready';
    entry.metadata = metadata;
    entry.item.dataset.status = 'ready';
    entry.show(() => this.texts.bytes(metadata.size ?? entry.size));
  }

  #entry(name: string, size: number): Pending {
    const item = element('li', { 'data-status': 'uploading' });
    const status = element('span', { class: 'status' });
    const remove = element('button', { type: 'button', class: 'remove' }, '×');
    this.texts.bind(remove, 'aria-label', () => this.texts.t('removeFile', { name }));
    item.append(element('span', { class: 'name' }, name), status, remove);
    // Bound: `setLocale` rewrites the status (and a failure's reason) too.
    const show = (text: () => string) => this.texts.bind(status, null, text);
    const entry: Pending = { size, status: 'uploading', metadata: null, item, show };
    remove.addEventListener('click', () => {
      this.#entries = this.#entries.filter((other) => other !== entry);
      item.remove();
    });
    this.#entries.push(entry);
    this.list.append(item);
    show(() => this.texts.t('uploading'));
    return entry;
  }

  get uploading(): boolean {
    return this.#entries.some((entry) => entry.status === 'uploading');
  }

  /** The uploaded files, to send with the message. */
  ready(): WidgetFile[] {
    return this.#entries.flatMap((entry) => (entry.metadata ? [entry.metadata] : []));
  }

  clear(): void {
    this.#entries = [];
    this.list.replaceChildren();
  }
}
