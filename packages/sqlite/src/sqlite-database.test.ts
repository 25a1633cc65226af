import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, test } from 'vitest';
import { SqliteDatabase } from './sqlite-database.js';
import { tempDir } from './test-support/temp-dir.js';

const removals: (() => void)[] = [];
afterEach(() => {
  for (const remove of removals.splice(0)) remove();
});

/** A database file with a table of texts, written through `SqliteDatabase`. */
function openWithTexts(busyTimeoutMs = 5000): SqliteDatabase {
  const { dir, remove } = tempDir('treeagent-purge-');
  removals.push(remove);
  const database = new SqliteDatabase(join(dir, 'treeagent.db'), { busyTimeoutMs });
  database.connection.exec('CREATE TABLE texts (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  const insert = database.connection.prepare('INSERT INTO texts (text) VALUES (?)');
  for (let index = 0; index < 20; index++) insert.run(`MKsecretTEXT ${index} ${'x'.repeat(3000)}`);
  return database;
}

describe('SqliteDatabase: deleted content is erased (issue #36)', () => {
  test('every connection runs with secure_delete = ON; purgeDeleted empties the WAL, leaving no deleted text', () => {
    const database = openWithTexts();
    try {
      expect(database.connection.pragma('secure_delete', { simple: true })).toBe(1);
      expect(statSync(`${database.file}-wal`).size).toBeGreaterThan(0);
      database.connection.exec('DELETE FROM texts');
      database.purgeDeleted();
      expect(statSync(`${database.file}-wal`).size).toBe(0);
      expect(readFileSync(database.file).toString('latin1')).not.toContain('MKsecretTEXT');
    } finally {
      database.close();
    }
  });

  test('a reader that keeps an older snapshot open makes purgeDeleted fail, saying the rows are gone and what to do', () => {
    const database = openWithTexts(50);
    const reader = new Database(database.file);
    try {
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM texts').get();
      database.connection.exec('DELETE FROM texts');
      expect(() => database.purgeDeleted()).toThrow(
        expect.objectContaining({
          code: 'SESSION_STORE',
          message: expect.stringMatching(
            /rows are deleted, but the WAL could not be emptied.*Repeat the request/,
          ),
        }),
      );
      expect(database.connection.prepare('SELECT count(*) AS n FROM texts').get()).toEqual({ n: 0 });
      reader.exec('COMMIT');
      database.purgeDeleted();
      expect(statSync(`${database.file}-wal`).size).toBe(0);
    } finally {
      reader.close();
      database.close();
    }
  });
});
