import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** A fresh temporary directory, and a function that removes it. */
export function tempDir(prefix = 'treeagent-sqlite-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every row of every table of a database file, read through a separate connection. */
export function dumpTables(file: string): Record<string, unknown[]> {
  const db = new Database(file);
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}" ORDER BY 1, 2`).all()]),
    );
  } finally {
    db.close();
  }
}

/** `PRAGMA integrity_check` of a database file ('ok' when sound). */
export function integrityCheck(file: string): string {
  const db = new Database(file);
  try {
    return db.pragma('integrity_check', { simple: true }) as string;
  } finally {
    db.close();
  }
}
