import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { TreeAgentError } from '@treeagent/core';
import { emptySessionRecord } from '@treeagent/core/adapter';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { SqliteDatabase } from './sqlite-database.js';
import { SqliteSessionStore } from './sqlite-session-store.js';
import { useCleanups } from './test-support/cleanups.js';
import {
  type CheckpointLookState,
  type CheckpointReport,
  decideCheckpoint,
  WalCheckpointer,
  WRITES_BEFORE_START,
} from './wal-checkpointer.js';

const { cleanups, freshFile } = useCleanups();

/** `count` one-turn commits on distinct sessions (each a write transaction). */
async function commitTurns(store: SqliteSessionStore, count: number, prefix = 's'): Promise<void> {
  for (let i = 0; i < count; i++) {
    const record = { ...emptySessionRecord(`${prefix}${i}`, 'now'), version: 1, turn: 1 };
    await store.commit({
      record,
      history: [{ role: 'user', content: `message ${i}`, turn: 1, at: 'now' }],
      expectedVersion: 0,
    });
  }
}

function nextReport(database: SqliteDatabase, accept: (report: CheckpointReport) => boolean) {
  return new Promise<CheckpointReport>((resolve) => {
    database.onCheckpoint = (report) => {
      if (accept(report)) resolve(report);
    };
  });
}

describe('background WAL checkpoints', () => {
  test('start after a few writes and turn SQLite’s inline automatic checkpoint off', async () => {
    const database = new SqliteDatabase(freshFile());
    const store = new SqliteSessionStore(database);
    cleanups.push(() => store.close());
    await commitTurns(store, WRITES_BEFORE_START - 1);
    expect(database.checkpointsInBackground).toBe(false);
    expect(database.connection.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await commitTurns(store, 1, 'last');
    expect(database.checkpointsInBackground).toBe(true);
    expect(database.connection.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
  });

  test('copy the committed turns into the database file itself, off the writing thread', async () => {
    const file = freshFile();
    const database = new SqliteDatabase(file, { checkpoint: { intervalMs: 20 } });
    const store = new SqliteSessionStore(database);
    cleanups.push(() => store.close());
    // Listening before the writes: under load the checkpoint after the last write can come before
    // the test would otherwise start listening, and the thread reports only while someone listens.
    let copiedWholeLog = false;
    database.onCheckpoint = (report) => {
      if (report.log > 0 && report.checkpointed === report.log) copiedWholeLog = true;
    };
    await commitTurns(store, 200);
    // The main file alone (no WAL beside it) comes to hold every session, copied by a checkpoint
    // that found the WAL fully copied.
    const copy = `${file}.copy`;
    const sessionsInMainFile = () => {
      copyFileSync(file, copy);
      const db = new Database(copy, { readonly: true });
      try {
        return (db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    // Both together: a report comes from the thread as a message, so the file can show the copy
    // before the report that says so has arrived.
    await expect
      .poll(() => ({ sessions: sessionsInMainFile(), copiedWholeLog }), { timeout: 15_000 })
      .toEqual({ sessions: 200, copiedWholeLog: true });
  });

  test('make the WAL start over under writes that never pause (RESTART past restartFrames)', async () => {
    const file = freshFile();
    const database = new SqliteDatabase(file, {
      checkpoint: { intervalMs: 5, writesPerCheckpoint: 50, restartFrames: 300 },
    });
    const store = new SqliteSessionStore(database);
    cleanups.push(() => store.close());
    const reports: CheckpointReport[] = [];
    database.onCheckpoint = (report) => reports.push(report);
    // After a RESTART, a later checkpoint sees a shorter WAL: it started over instead of growing.
    const startedOver = () => {
      const restart = reports.findIndex((report) => report.restarted);
      return restart >= 0 && reports.slice(restart + 1).some((report) => report.log < reports[restart]!.log);
    };
    // Bounded by time, not by a number of rows: on a loaded machine the checkpoint thread gets less
    // CPU, and 40,000 rows were once not enough for it to reach a RESTART (a clean CI run).
    let count = 0;
    const deadline = Date.now() + 60_000;
    while (!startedOver() && Date.now() < deadline) {
      // Back-to-back commits; the yield only lets the thread's reports in (no idle time).
      await commitTurns(store, 50, `b${count}-`);
      count += 50;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(startedOver()).toBe(true);
    const rows = database.connection.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number };
    expect(rows.n).toBe(count);
    expect(database.connection.pragma('integrity_check', { simple: true })).toBe('ok');
  }, 90_000);

  test('wait for the writers to pause: no checkpoint beside writes that never pause, one at the pause', async () => {
    const file = freshFile();
    // Looks every 100 ms; a million writes before a checkpoint under load (never reached here).
    const database = new SqliteDatabase(file, {
      checkpoint: { intervalMs: 100, writesPerCheckpoint: 1_000_000 },
    });
    const store = new SqliteSessionStore(database);
    cleanups.push(() => store.close());
    await commitTurns(store, WRITES_BEFORE_START, 'start-');
    const reports: CheckpointReport[] = [];
    database.onCheckpoint = (report) => reports.push(report);
    // 1.5 s of back-to-back commits, yielding between batches so that reports could come in.
    const until = performance.now() + 1500;
    for (let batch = 0; performance.now() < until; batch++) {
      await commitTurns(store, 20, `w${batch}-`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    // The first look may find the writes before the reports were asked for; none after that.
    expect(reports.filter((report) => report.log > 0).length).toBeLessThanOrEqual(1);
    const atPause = await nextReport(database, (report) => report.log > 0);
    expect(atPause.checkpointed).toBe(atPause.log);
  });

  test('one look decides: writes since the last checkpoint, and a pause or writesPerCheckpoint of them', () => {
    const look = (state: CheckpointLookState, count: number) => decideCheckpoint(state, count, 100);
    // Before the first checkpoint the WAL may hold earlier writes: a pause checkpoints them.
    expect(look({ seen: 5, checkpointedAt: -1 }, 5)).toEqual({
      checkpoint: true,
      state: { seen: 5, checkpointedAt: 5 },
    });
    // Nothing written since the last checkpoint: nothing to do, however long the pause.
    expect(look({ seen: 5, checkpointedAt: 5 }, 5).checkpoint).toBe(false);
    // Writes still coming, fewer than writesPerCheckpoint since the last one: wait.
    expect(look({ seen: 5, checkpointedAt: 5 }, 60)).toEqual({
      checkpoint: false,
      state: { seen: 60, checkpointedAt: 5 },
    });
    // Then a look with no new write: the writers paused.
    expect(look({ seen: 60, checkpointedAt: 5 }, 60).checkpoint).toBe(true);
    // Writes that never pause: every writesPerCheckpoint of them.
    expect(look({ seen: 60, checkpointedAt: 5 }, 105)).toEqual({
      checkpoint: true,
      state: { seen: 105, checkpointedAt: 105 },
    });
  });

  test('a checkpoint option that is not a positive number is an INVALID_INPUT error naming it', () => {
    for (const [name, value] of [
      ['intervalMs', 0],
      ['writesPerCheckpoint', -1],
      ['restartFrames', Number.NaN],
    ] as const) {
      let error: unknown;
      try {
        new SqliteDatabase(freshFile(), { checkpoint: { [name]: value } });
      } catch (e) {
        error = e;
      }
      expect(TreeAgentError.hasCode(error, 'INVALID_INPUT')).toBe(true);
      expect((error as Error).message).toContain(`checkpoint.${name} must be a positive number`);
    }
  });

  test('mode "inline" keeps SQLite’s automatic checkpoint and starts no thread', async () => {
    const database = new SqliteDatabase(freshFile(), { checkpoint: { mode: 'inline' } });
    const store = new SqliteSessionStore(database);
    cleanups.push(() => store.close());
    await commitTurns(store, WRITES_BEFORE_START * 2);
    expect(database.checkpointsInBackground).toBe(false);
    expect(database.connection.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  test('an unknown mode is an INVALID_INPUT error naming the choices', () => {
    let error: unknown;
    try {
      new SqliteDatabase(freshFile(), { checkpoint: { mode: 'later' as 'inline' } });
    } catch (e) {
      error = e;
    }
    expect(TreeAgentError.hasCode(error, 'INVALID_INPUT')).toBe(true);
    expect((error as Error).message).toMatch(/"background" or "inline"/);
  });

  test('closing the database stops the thread, and the WAL is folded back into the file', async () => {
    const file = freshFile();
    const database = new SqliteDatabase(file);
    const store = new SqliteSessionStore(database);
    await commitTurns(store, WRITES_BEFORE_START + 10);
    expect(database.checkpointsInBackground).toBe(true);
    await store.close();
    expect(database.checkpointsInBackground).toBe(false);
    // The thread's connection closes last, checkpoints and removes the WAL.
    for (let i = 0; i < 100 && existsSync(`${file}-wal`); i++) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  test('a thread that cannot open the file reports the failure (the owner falls back to inline)', async () => {
    const failure = await new Promise<Error>((resolve) => {
      new WalCheckpointer({
        file: join(freshFile(), 'missing-directory', 'x.db'),
        synchronous: 'NORMAL',
        busyTimeoutMs: 100,
        onFailure: resolve,
      });
    });
    expect(failure.message).toMatch(/directory|unable to open|exited/i);
  });
});
