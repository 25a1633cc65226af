import type { FileMetadata, FileOrigin } from './file-metadata.js';

/**
 * The files of the conversation for callbacks (SPEC §9, File Agent): the attachments of the
 * current message, files retrieved through RAG and files made in code during the interaction.
 */
export class FileAgent {
  /** Files attached to the user's message of this interaction. */
  readonly attachments: readonly FileMetadata[];
  readonly #files = new Map<string, FileMetadata>();

  constructor(attachments: readonly FileMetadata[] = []) {
    this.attachments = attachments;
    for (const file of attachments) this.#files.set(file.id, file);
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
