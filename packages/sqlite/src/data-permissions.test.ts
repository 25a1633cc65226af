import { statSync } from 'node:fs';
import { join } from 'node:path';
import { defineTree, TreeAgent } from '@treeagent/core';
import { afterEach, describe, expect, test } from 'vitest';
import { openSqlite, type SqliteStores } from './open-sqlite.js';
import { tempDir } from './test-support/temp-dir.js';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('data directory permissions', () => {
  let stores: SqliteStores | undefined;
  const temp = tempDir();
  afterEach(async () => {
    await stores?.close();
    stores = undefined;
    temp.remove();
  });

  test('the directory is created 0700 and the database, -wal and -shm files 0600', async () => {
    const directory = join(temp.dir, 'data', 'nested');
    stores = openSqlite(directory);
    const tree = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: ['hello'],
          emit: { message: { type: 'static', content: 'hi' } },
        },
      ],
    });
    const agent = new TreeAgent({ tree, sessionStore: stores.sessionStore });
    await agent.send('s1', 'hello');
    expect(mode(directory)).toBe(0o700);
    expect(mode(join(directory, '..'))).toBe(0o700);
    for (const suffix of ['', '-wal', '-shm']) expect(mode(`${stores.file}${suffix}`), suffix).toBe(0o600);
  });
});
