import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileMetadata } from '../protocol/file-metadata.js';
import type { FileStore, NewFile } from './file-store.js';
import { describe, unknownFile } from './in-memory-file-store.js';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Files on local disk: `<directory>/<id>` holds the bytes and `<id>.json` the metadata. Ids are
 * random UUIDs and anything else is refused, so an id can never name a path outside the directory.
 *
 * @example
 * const agent = new TreeAgent({ tree, fileStore: new LocalFileStore('.data/files') });
 */
export class LocalFileStore implements FileStore {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = directory;
  }

  async put(file: NewFile): Promise<FileMetadata> {
    const metadata = describe(randomUUID(), file);
    await mkdir(this.directory, { recursive: true });
    await writeFile(join(this.directory, metadata.id), file.data);
    await writeFile(join(this.directory, `${metadata.id}.json`), JSON.stringify(metadata));
    return metadata;
  }

  async metadata(id: string): Promise<FileMetadata | null> {
    if (!ID.test(id)) return null;
    try {
      return JSON.parse(await readFile(join(this.directory, `${id}.json`), 'utf8')) as FileMetadata;
    } catch {
      return null;
    }
  }

  async read(id: string): Promise<Uint8Array> {
    if (!ID.test(id)) throw unknownFile(id);
    try {
      return new Uint8Array(await readFile(join(this.directory, id)));
    } catch {
      throw unknownFile(id);
    }
  }

  async delete(id: string): Promise<void> {
    if (!ID.test(id)) return;
    await rm(join(this.directory, id), { force: true });
    await rm(join(this.directory, `${id}.json`), { force: true });
  }

  /** Deletes the files of a session (reads every metadata file: meant for small directories). */
  async deleteSession(sessionId: string): Promise<void> {
    for (const file of await this.sessionFiles(sessionId)) await this.delete(file.id);
  }

  /** The files of a session, oldest first (reads every metadata file: meant for small directories). */
  async sessionFiles(sessionId: string): Promise<FileMetadata[]> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch {
      return [];
    }
    const found: { metadata: FileMetadata; at: number }[] = [];
    for (const name of names) {
      const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : '';
      const metadata = await this.metadata(id);
      if (metadata?.sessionId !== sessionId) continue;
      const at = await stat(join(this.directory, name)).then(
        (info) => info.mtimeMs,
        () => 0,
      );
      found.push({ metadata, at });
    }
    return found.sort((a, b) => a.at - b.at).map((file) => file.metadata);
  }
}
