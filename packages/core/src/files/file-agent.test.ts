import { describe, expect, test } from 'vitest';
import type { FileMetadata } from '../protocol/file-metadata.js';
import type { RetrievedChunk } from '../protocol/retrieved-chunk.js';
import { FileAgent, fileOfChunk } from './file-agent.js';
import { InMemoryFileStore } from './in-memory-file-store.js';

const upload: FileMetadata = { id: 'u1', name: 'bici.jpg', mimeType: 'image/jpeg', origin: 'chat' };
const earlier: FileMetadata = {
  id: 'u0',
  name: 'scontrino.pdf',
  mimeType: 'application/pdf',
  origin: 'chat',
};
const chunk = (extra: Record<string, unknown>): RetrievedChunk => ({
  id: 'c',
  text: 't',
  extra,
  similarity: 1,
});

describe('FileAgent', () => {
  test('files made in code are stored, registered and readable', async () => {
    const store = new InMemoryFileStore();
    const agent = new FileAgent({ store, sessionId: 's1' });
    const file = await agent.create({ name: 'report.csv', mimeType: 'text/csv', data: 'a,b\n1,2' });
    expect(file).toMatchObject({ origin: 'generated', sessionId: 's1' });
    expect(agent.byName('report.csv')).toEqual(file);
    expect(agent.list('generated')).toEqual([file]);
    expect(new TextDecoder().decode(await agent.read(file))).toBe('a,b\n1,2');
  });

  test("lists the conversation's files, earlier ones first, filtered by origin", () => {
    const agent = new FileAgent({ attachments: [upload], known: [earlier] });
    agent.addFromChunks([chunk({ file: { id: 'kb1', name: 'listino.pdf', mimeType: 'application/pdf' } })]);
    expect(agent.attachments).toEqual([upload]);
    expect(agent.list().map((file) => file.id)).toEqual(['u0', 'u1', 'kb1']);
    expect(agent.list('chat').map((file) => file.id)).toEqual(['u0', 'u1']);
    expect(agent.list('rag')).toEqual([
      { id: 'kb1', name: 'listino.pdf', mimeType: 'application/pdf', origin: 'rag' },
    ]);
    expect(agent.list('generated')).toEqual([]);
  });

  test("a chunk's file reference becomes a FileMetadata of origin rag; other chunks none", () => {
    expect(fileOfChunk(chunk({ file: { id: 'f', name: 'a.txt', size: 3 } }))).toEqual({
      id: 'f',
      name: 'a.txt',
      mimeType: 'application/octet-stream',
      size: 3,
      origin: 'rag',
    });
    expect(fileOfChunk(chunk({}))).toBeUndefined();
    expect(fileOfChunk(chunk({ file: 'a.txt' }))).toBeUndefined();
    expect(fileOfChunk(chunk({ file: { id: '', name: 'a.txt' } }))).toBeUndefined();
    const agent = new FileAgent();
    const twice = { file: { id: 'f', name: 'a.txt' } };
    expect(agent.addFromChunks([chunk(twice), chunk(twice), chunk({})])).toHaveLength(1);
  });

  test('without a file store, create says how to configure one', async () => {
    await expect(new FileAgent().create({ name: 'x', mimeType: 'text/plain', data: 'x' })).rejects.toThrow(
      /pass fileStore to new TreeAgent/,
    );
  });
});
