import { describe, expect, test } from 'vitest';
import { singlePart, storedFileMetadata, writeInChunks } from './chunked-upload.js';

async function* parts(...sizes: number[]): AsyncIterable<Uint8Array> {
  let next = 0;
  for (const size of sizes) yield Uint8Array.from({ length: size }, () => next++ % 256);
}

describe('writeInChunks (the chunk-and-count bookkeeping of the SQLite and PostgreSQL file stores)', () => {
  test('cuts any parts into chunks of exactly chunkBytes, in order, and returns the bytes counted', async () => {
    const written: [number, number[]][] = [];
    const size = await writeInChunks(parts(3, 0, 5, 1, 4), 4, (chunk, seq) => {
      written.push([seq, [...chunk]]);
    });
    expect(size).toBe(13);
    expect(written).toEqual([
      [0, [0, 1, 2, 3]],
      [1, [4, 5, 6, 7]],
      [2, [8, 9, 10, 11]],
      [3, [12]],
    ]);
  });

  test('waits for each chunk to be written before reading on, and writes nothing for an empty stream', async () => {
    const events: string[] = [];
    async function* traced(): AsyncIterable<Uint8Array> {
      for (let i = 0; i < 3; i++) {
        events.push(`read ${i}`);
        yield new Uint8Array(2);
      }
    }
    await writeInChunks(traced(), 2, async (_chunk, seq) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      events.push(`wrote ${seq}`);
    });
    expect(events).toEqual(['read 0', 'wrote 0', 'read 1', 'wrote 1', 'read 2', 'wrote 2']);
    let calls = 0;
    expect(await writeInChunks(parts(), 2, () => calls++)).toBe(0);
    expect(calls).toBe(0);
  });

  test('rethrows a failure of the stream or of a write', async () => {
    async function* broken(): AsyncIterable<Uint8Array> {
      yield new Uint8Array(1);
      throw new Error('connection reset');
    }
    await expect(writeInChunks(broken(), 4, () => {})).rejects.toThrow('connection reset');
    await expect(
      writeInChunks(parts(8), 4, () => {
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
  });

  test('singlePart and storedFileMetadata give put() the stream and the metadata putStream returns', async () => {
    const seen: Uint8Array[] = [];
    for await (const part of singlePart(Uint8Array.of(1, 2))) seen.push(part);
    expect(seen).toEqual([Uint8Array.of(1, 2)]);
    const file = { name: 'a.txt', mimeType: 'text/plain', origin: 'chat' as const };
    expect(storedFileMetadata('f1', file, 2)).toEqual({ id: 'f1', ...file, size: 2 });
    expect(storedFileMetadata('f1', { ...file, sessionId: 's' }, 2).sessionId).toBe('s');
  });
});
