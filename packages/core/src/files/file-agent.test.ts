import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import { FileAgent } from './file-agent.js';
import type { FileStore } from './file-store.js';
import { InMemoryFileStore } from './in-memory-file-store.js';
import { LocalFileStore } from './local-file-store.js';

const directory = mkdtempSync(join(tmpdir(), 'treeagent-files-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The FileStore conformance suite: every implementation must pass it. */
const implementations: [string, () => FileStore][] = [
  ['InMemoryFileStore', () => new InMemoryFileStore()],
  ['LocalFileStore', () => new LocalFileStore(directory)],
];

describe.each(implementations)('%s', (_name, create) => {
  test('stores bytes and metadata, reads them back, deletes them', async () => {
    const store = create();
    const bytes = new TextEncoder().encode('ricevuta n. 42');
    const file = await store.put({
      name: 'ricevuta.txt',
      mimeType: 'text/plain',
      data: bytes,
      origin: 'generated',
      sessionId: 's1',
    });
    expect(file).toMatchObject({
      name: 'ricevuta.txt',
      mimeType: 'text/plain',
      size: bytes.length,
      origin: 'generated',
      sessionId: 's1',
    });
    expect(await store.metadata(file.id)).toEqual(file);
    expect(new TextDecoder().decode(await store.read(file.id))).toBe('ricevuta n. 42');
    await store.delete(file.id);
    expect(await store.metadata(file.id)).toBeNull();
    await expect(store.read(file.id)).rejects.toSatisfy((error) =>
      TreeAgentError.hasCode(error, 'UNKNOWN_FILE'),
    );
  });

  test('ids are unique and unknown or hostile ids are refused', async () => {
    const store = create();
    const a = await store.put({
      name: 'a',
      mimeType: 'text/plain',
      data: new Uint8Array([1]),
      origin: 'chat',
    });
    const b = await store.put({
      name: 'a',
      mimeType: 'text/plain',
      data: new Uint8Array([1]),
      origin: 'chat',
    });
    expect(a.id).not.toBe(b.id);
    for (const id of ['../../etc/passwd', 'nope', `${a.id}/../${b.id}`]) {
      expect(await store.metadata(id)).toBeNull();
      await expect(store.read(id)).rejects.toSatisfy((error) =>
        TreeAgentError.hasCode(error, 'UNKNOWN_FILE'),
      );
    }
  });
});

describe('FileAgent', () => {
  test('files made in code are stored, registered and readable', async () => {
    const store = new InMemoryFileStore();
    const agent = new FileAgent([], store, 's1');
    const file = await agent.create({ name: 'report.csv', mimeType: 'text/csv', data: 'a,b\n1,2' });
    expect(file).toMatchObject({ origin: 'generated', sessionId: 's1' });
    expect(agent.byName('report.csv')).toEqual(file);
    expect(agent.list('generated')).toEqual([file]);
    expect(new TextDecoder().decode(await agent.read(file))).toBe('a,b\n1,2');
  });
});
