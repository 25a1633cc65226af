import type { WidgetFile } from './widget-client';
import { element } from './widget-dom';
import type { WidgetTexts } from './widget-i18n';

interface Pending {
  file: File;
  status: 'uploading' | 'ready' | 'failed';
  metadata: WidgetFile | null;
  item: HTMLLIElement;
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
      const item = element('li', { 'data-status': 'uploading' });
      const status = element('span', { class: 'status' });
      const remove = element('button', { type: 'button', class: 'remove' }, '×');
      this.texts.bind(remove, 'aria-label', () => this.texts.t('removeFile', { name: file.name }));
      item.append(element('span', { class: 'name' }, file.name), status, remove);
      const entry: Pending = { file, status: 'uploading', metadata: null, item };
      const show = (reason = '') =>
        this.texts.bind(status, null, () =>
          entry.status === 'uploading'
            ? this.texts.t('uploading')
            : entry.status === 'failed'
              ? this.texts.t('uploadFailed', { reason })
              : this.texts.bytes(entry.metadata?.size ?? file.size),
        );
      remove.addEventListener('click', () => {
        this.#entries = this.#entries.filter((other) => other !== entry);
        item.remove();
      });
      this.#entries.push(entry);
      this.list.append(item);
      show();
      this.upload(file).then(
        (metadata) => {
          entry.status = 'ready';
          entry.metadata = metadata;
          item.dataset.status = 'ready';
          show();
        },
        (error: unknown) => {
          entry.status = 'failed';
          item.dataset.status = 'failed';
          show(error instanceof Error ? error.message : String(error));
        },
      );
    }
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
