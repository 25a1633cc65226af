import { describe, expect } from 'vitest';
import type { TreeAgentError } from '../errors/tree-agent-error.js';
import type { FileStore, NewFile } from '../files/file-store.js';
import { rejection } from '../test/rejection.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/**
 * Creates a fresh, empty store for one test, and disposes of it afterwards. `reopen`, when the
 * store keeps its files outside the process, opens a second store object on the same files.
 */
export type FileStoreFactory = () => Promise<{
  store: FileStore;
  reopen?: () => Promise<FileStore>;
  dispose?: () => Promise<void>;
}>;

/**
 * The `FileStore` conformance suite: every implementation runs it (in memory, local disk, and any
 * object store). Call it inside a test file: `describeFileStore('LocalFileStore', factory)`.
 */
export function describeFileStore(
  name: string,
  factory: FileStoreFactory,
  options: ConformanceOptions = {},
): void {
  const withStore =
    (body: (store: FileStore, reopen: (() => Promise<FileStore>) | undefined) => Promise<void>) =>
    async () => {
      const { store, reopen, dispose } = await factory();
      try {
        await body(store, reopen);
      } finally {
        await dispose?.();
      }
    };

  describe(`FileStore conformance: ${name}`, () => {
    const cases = conformanceCases(`FileStore conformance of ${name}`, options);

    cases.test(
      'put describes the file; metadata and read give it back exactly',
      withStore(async (store) => {
        const data = BINARY.slice();
        const file = await store.put({
          name: 'ricevuta n° 42 è.pdf',
          mimeType: 'application/pdf',
          data,
          origin: 'generated',
          sessionId: 's1',
        });
        expect(typeof file.id).toBe('string');
        expect(file.id.length).toBeGreaterThan(0);
        expect(file).toMatchObject({
          name: 'ricevuta n° 42 è.pdf',
          mimeType: 'application/pdf',
          size: BINARY.byteLength,
          origin: 'generated',
          sessionId: 's1',
        });
        expect(await store.metadata(file.id)).toEqual(file);
        expect(bytes(await store.read(file.id))).toEqual(bytes(BINARY));
      }),
    );

    cases.test(
      'a file without a session has no sessionId; an empty file reads back empty',
      withStore(async (store) => {
        const file = await store.put({
          name: 'empty.txt',
          mimeType: 'text/plain',
          data: new Uint8Array(0),
          origin: 'chat',
        });
        expect(file.size).toBe(0);
        expect('sessionId' in file).toBe(false);
        expect((await store.metadata(file.id))?.sessionId).toBeUndefined();
        expect((await store.read(file.id)).byteLength).toBe(0);
      }),
    );

    cases.test(
      'the stored bytes are a copy: changing the given or the read array changes nothing',
      withStore(async (store) => {
        const data = new TextEncoder().encode('originale');
        const file = await store.put(textFile(data));
        data.fill(0);
        const read = await store.read(file.id);
        expect(new TextDecoder().decode(read)).toBe('originale');
        read.fill(0);
        expect(new TextDecoder().decode(await store.read(file.id))).toBe('originale');
      }),
    );

    cases.test(
      'two puts of the same file get different ids, each with its own bytes',
      withStore(async (store) => {
        const a = await store.put(textFile(new TextEncoder().encode('uno')));
        const b = await store.put(textFile(new TextEncoder().encode('uno')));
        expect(a.id).not.toBe(b.id);
        await store.delete(a.id);
        expect(new TextDecoder().decode(await store.read(b.id))).toBe('uno');
      }),
    );

    cases.test(
      'concurrent puts all land, each readable with its own bytes',
      withStore(async (store) => {
        const texts = Array.from({ length: 20 }, (_, i) => `file ${i} ${'x'.repeat(i * 100)}`);
        const files = await Promise.all(
          texts.map((text) => store.put(textFile(new TextEncoder().encode(text)))),
        );
        expect(new Set(files.map((file) => file.id)).size).toBe(texts.length);
        const read = await Promise.all(files.map((file) => store.read(file.id)));
        expect(read.map((data) => new TextDecoder().decode(data))).toEqual(texts);
      }),
    );

    cases.test(
      'a large file (2 MB) reads back byte for byte',
      withStore(async (store) => {
        const data = new Uint8Array(2 * 1024 * 1024);
        for (let i = 0; i < data.length; i++) data[i] = (i * 31 + (i >> 8)) & 0xff;
        const file = await store.put({
          name: 'big.bin',
          mimeType: 'application/octet-stream',
          data,
          origin: 'rag',
        });
        expect(file.size).toBe(data.byteLength);
        const read = await store.read(file.id);
        expect(read.byteLength).toBe(data.byteLength);
        expect(Buffer.from(read).equals(Buffer.from(data))).toBe(true);
      }),
    );

    cases.test(
      'delete removes the file and nothing else; deleting twice or an unknown id is a no-op',
      withStore(async (store) => {
        const kept = await store.put(textFile(new TextEncoder().encode('kept')));
        const gone = await store.put(textFile(new TextEncoder().encode('gone')));
        await store.delete(gone.id);
        expect(await store.metadata(gone.id)).toBeNull();
        expect(await unknownFileError(store.read(gone.id))).toMatchObject({ details: { fileId: gone.id } });
        await store.delete(gone.id);
        await store.delete('no-such-file');
        expect(await store.metadata(kept.id)).toEqual(kept);
        expect(new TextDecoder().decode(await store.read(kept.id))).toBe('kept');
      }),
    );

    cases.test(
      'unknown and hostile ids: metadata is null, read fails with UNKNOWN_FILE',
      withStore(async (store) => {
        const file = await store.put(textFile(new TextEncoder().encode('secret')));
        for (const id of [
          'nope',
          '',
          '../../etc/passwd',
          `${file.id}/../${file.id}`,
          `${file.id}.json`,
          '%2e%2e%2f',
        ]) {
          expect(await store.metadata(id)).toBeNull();
          await unknownFileError(store.read(id));
        }
      }),
    );

    cases.test(
      "deleteSession, when the store has it, deletes that session's files and no other",
      withStore(async (store) => {
        if (!store.deleteSession)
          throw new Error(`${name} has no deleteSession(): skip this test with a reason.`);
        const put = (sessionId: string | undefined, text: string) =>
          store.put({ ...textFile(new TextEncoder().encode(text)), ...(sessionId ? { sessionId } : {}) });
        const gone = [await put('s1', 'upload'), await put('s1', 'generated')];
        const kept = [await put('s2', 'other session'), await put(undefined, 'no session')];
        await store.deleteSession('s1');
        for (const file of gone) {
          expect(await store.metadata(file.id)).toBeNull();
          await unknownFileError(store.read(file.id));
        }
        for (const file of kept) expect(await store.metadata(file.id)).toEqual(file);
        await store.deleteSession('s1');
        await store.deleteSession('never-seen');
      }),
    );

    cases.test(
      'sessionFiles, when the store has it, lists every file of that session and no other',
      withStore(async (store) => {
        if (!store.sessionFiles)
          throw new Error(`${name} has no sessionFiles(): skip this test with a reason.`);
        const put = (sessionId: string | undefined, name: string) =>
          store.put({
            ...textFile(new TextEncoder().encode(name)),
            name,
            ...(sessionId ? { sessionId } : {}),
          });
        const mine = [await put('s1', 'first.txt'), await put('s1', 'second.txt')];
        await put('s2', 'other session.txt');
        await put(undefined, 'no session.txt');
        const listed = await store.sessionFiles('s1');
        expect(listed.map((file) => file.name).sort()).toEqual(['first.txt', 'second.txt']);
        expect(listed.sort((a, b) => a.name.localeCompare(b.name))).toEqual(mine);
        expect(await store.sessionFiles('never-seen')).toEqual([]);
        await store.delete(mine[0]!.id);
        expect((await store.sessionFiles('s1')).map((file) => file.id)).toEqual([mine[1]!.id]);
      }),
    );

    cases.test(
      'files outlive the store object: a reopened store reads and deletes them',
      withStore(async (store, reopen) => {
        if (!reopen)
          throw new Error(`${name}: give the factory a reopen function, or skip this test with a reason.`);
        const file = await store.put({ ...textFile(BINARY.slice()), sessionId: 's9' });
        const again = await reopen();
        expect(await again.metadata(file.id)).toEqual(file);
        expect(bytes(await again.read(file.id))).toEqual(bytes(BINARY));
        await again.delete(file.id);
        expect(await store.metadata(file.id)).toBeNull();
      }),
    );

    cases.test(
      'putStream (when the store has it) stores a file of many chunks, visible only once complete',
      withStore(async (store) => {
        if (!store.putStream) {
          expect(store.putStream).toBeUndefined();
          return;
        }
        const part = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256);
        let yielded = 0;
        async function* parts() {
          for (let i = 0; i < 8; i++) {
            yielded++;
            yield part;
          }
        }
        const file = await store.putStream({
          name: 'big.bin',
          mimeType: 'application/octet-stream',
          origin: 'chat',
          sessionId: 's1',
          data: parts(),
        });
        expect(yielded).toBe(8);
        expect(file.size).toBe(8 * part.byteLength);
        expect(await store.metadata(file.id)).toEqual(file);
        const read = await store.read(file.id);
        expect(read.byteLength).toBe(8 * part.byteLength);
        expect(Array.from(read.subarray(299_990, 300_010))).toEqual(
          Array.from(part.subarray(299_990, 300_000)).concat(Array.from(part.subarray(0, 10))),
        );
        // A stream that fails stores nothing, and the error is the stream's.
        const failure = new Error('the client went away');
        async function* broken() {
          yield part;
          yield part;
          throw failure;
        }
        const before = store.usage ? await store.usage() : 0;
        await expect(
          store.putStream({
            name: 'cut.bin',
            mimeType: 'application/octet-stream',
            origin: 'chat',
            sessionId: 's1',
            data: broken(),
          }),
        ).rejects.toBe(failure);
        if (store.usage) expect(await store.usage()).toBe(before);
      }),
    );

    cases.test(
      'usage and deleteSession (when the store has them) count and remove a session’s files',
      withStore(async (store) => {
        if (!store.usage || !store.deleteSession) {
          expect(store.usage === undefined || store.deleteSession === undefined).toBe(true);
          return;
        }
        const a = await store.put({ ...textFile(new Uint8Array(100)), sessionId: 'sa' });
        await store.put({ ...textFile(new Uint8Array(50)), sessionId: 'sa' });
        const b = await store.put({ ...textFile(new Uint8Array(30)), sessionId: 'sb' });
        expect(await store.usage('sa')).toBe(150);
        expect(await store.usage('sb')).toBe(30);
        expect(await store.usage()).toBe(180);
        await store.deleteSession('sa');
        expect(await store.metadata(a.id)).toBeNull();
        expect(await store.metadata(b.id)).not.toBeNull();
        expect(await store.usage()).toBe(30);
      }),
    );

    cases.done();
  });
}

/** Every byte value, twice, so encodings that lose bytes (UTF-8, NUL-terminated) show. */
const BINARY = Uint8Array.from({ length: 512 }, (_, i) => i % 256);

function textFile(data: Uint8Array): NewFile {
  return { name: 'note.txt', mimeType: 'text/plain', data, origin: 'chat' };
}

function bytes(data: Uint8Array): number[] {
  return Array.from(data);
}

async function unknownFileError(promise: Promise<unknown>): Promise<TreeAgentError> {
  const error = await rejection(promise);
  expect(error.code).toBe('UNKNOWN_FILE');
  return error;
}
