import type { FileMetadata, FileOrigin } from '../protocol/file-metadata.js';
import type { FileStore } from './file-store.js';

/**
 * The files of the conversation for callbacks (docs/concepts.md §9, File Agent): the attachments of the
 * current message, files retrieved through RAG and files made in code during the interaction.
 */
export class FileAgent {
  /** Files attached to the user's message of this interaction. */
  readonly attachments: readonly FileMetadata[];
  readonly #files = new Map<string, FileMetadata>();
  readonly #store: FileStore | undefined;
  readonly #sessionId: string | undefined;

  constructor(attachments: readonly FileMetadata[] = [], store?: FileStore, sessionId?: string) {
    this.attachments = attachments;
    this.#store = store;
    this.#sessionId = sessionId;
    for (const file of attachments) this.#files.set(file.id, file);
  }

  /** Stores a file made in code (a report, a receipt…) and registers it; attach it to an emit's output. */
  async create(file: { name: string; mimeType: string; data: Uint8Array | string }): Promise<FileMetadata> {
    if (!this.#store) throw new Error('No file store is configured: pass fileStore to new TreeAgent(...).');
    const data = typeof file.data === 'string' ? new TextEncoder().encode(file.data) : file.data;
    const metadata = await this.#store.put({
      name: file.name,
      mimeType: file.mimeType,
      data,
      origin: 'generated',
      ...(this.#sessionId === undefined ? {} : { sessionId: this.#sessionId }),
    });
    return this.add(metadata);
  }

  /** The bytes of a file of the conversation. */
  async read(file: FileMetadata | string): Promise<Uint8Array> {
    if (!this.#store) throw new Error('No file store is configured: pass fileStore to new TreeAgent(...).');
    return this.#store.read(typeof file === 'string' ? file : file.id);
  }

  /** Registers a file (for example one produced by a callback) so later nodes can use it. */
  add(file: FileMetadata): FileMetadata {
    this.#files.set(file.id, file);
    return file;
  }

  get(id: string): FileMetadata | undefined {
    return this.#files.get(id);
  }

  /** Finds a file by its original name (`report.pdf`), as `{{report.pdf}}` placeholders do. */
  byName(name: string): FileMetadata | undefined {
    for (const file of this.#files.values()) if (file.name === name) return file;
    return undefined;
  }

  /** Every known file, optionally only those of one origin. */
  list(origin?: FileOrigin): FileMetadata[] {
    const all = [...this.#files.values()];
    return origin ? all.filter((file) => file.origin === origin) : all;
  }
}
