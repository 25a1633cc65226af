import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionStore } from '@treeagent/core/adapter';
import { PostgresSessionStore } from '@treeagent/postgres';
import { SqliteSessionStore } from '@treeagent/sqlite';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../core/src/test-support/cleanups-after-each.js';
import { openAiEngineSessionId } from './openai/chat-session.js';
import {
  chat,
  requirePostgres,
  SERVER_PROCESS_API_KEY,
  type ServerProcess,
  serverStarter,
  TEST_DATABASE_URL,
  testSchema,
} from './test-support/server-process.js';

/**
 * A real server process (`node --import tsx test-support/server-process.ts`) under load is killed with
 * SIGKILL, then a new one is started on the same store: every turn whose HTTP response arrived
 * complete (acknowledged) must be in the session's history, which must be well formed.
 */

const SESSIONS = ['s0', 's1', 's2', 's3'];
const CLIENTS = 8;
const LOAD_MS = 1500;

const cleanups = cleanupsAfterEach();
const start = serverStarter(cleanups);

interface Ack {
  sessionId: string;
  message: string;
  turn: number;
  content: string;
}

/**
 * CLIENTS sequential clients (two per session) send turns until the server dies; after LOAD_MS
 * and at least 20 acknowledged turns the server is killed with SIGKILL.
 */
async function loadAndKill(server: ServerProcess): Promise<{ acks: Ack[]; failures: string[] }> {
  const acks: Ack[] = [];
  const failures: string[] = [];
  let dead = false;
  const clients = Array.from({ length: CLIENTS }, async (_, c) => {
    const sessionId = SESSIONS[c % SESSIONS.length]!;
    for (let i = 0; !dead; i++) {
      const message = `c${c}-m${i}`;
      try {
        const result = await chat(server.url, sessionId, message);
        if (result.turn !== undefined)
          acks.push({ sessionId, message, turn: result.turn, content: result.content! });
        else failures.push(`${result.status} ${JSON.stringify(result.body)}`);
      } catch {
        // The server is gone (connection reset or refused): this turn is not acknowledged.
        return;
      }
    }
  });
  const started = Date.now();
  while (Date.now() - started < LOAD_MS || acks.length < 20) {
    if (Date.now() - started > 15_000) throw new Error(`only ${acks.length} turns acknowledged in 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const signal = await server.kill();
  dead = true;
  await Promise.all(clients);
  expect(signal).toBe('SIGKILL');
  return { acks, failures };
}

/**
 * The session's history is whole turns 1..n, each its user message then its one answer (which
 * names its turn and the count of turns the session state holds, so a lost update shows), the
 * record agrees, and every acknowledged turn is there with its message.
 */
async function checkSession(store: SessionStore, sessionId: string, acks: Ack[]): Promise<number> {
  const history = await store.history(openAiEngineSessionId(SERVER_PROCESS_API_KEY, sessionId));
  const record = await store.load(openAiEngineSessionId(SERVER_PROCESS_API_KEY, sessionId));
  const turns = history.length / 2;
  expect(history.length % 2, 'no half turn').toBe(0);
  expect(record?.turn ?? 0).toBe(turns);
  history.forEach((entry, i) => {
    expect(entry.turn).toBe(Math.floor(i / 2) + 1);
    expect(entry.role).toBe(i % 2 === 0 ? 'user' : 'assistant');
  });
  for (let t = 1; t <= turns; t++) {
    const user = history[2 * t - 2]!;
    expect(history[2 * t - 1]!.content).toBe(`turn ${t} count ${t} re ${user.content}`);
  }
  const mine = acks.filter((ack) => ack.sessionId === sessionId);
  expect(new Set(mine.map((ack) => ack.turn)).size).toBe(mine.length);
  for (const ack of mine) {
    expect(ack.turn).toBeLessThanOrEqual(turns);
    expect(history[2 * ack.turn - 2]!.content).toBe(ack.message);
    expect(ack.content).toBe(`turn ${ack.turn} count ${ack.turn} re ${ack.message}`);
  }
  return turns;
}

/** The whole scenario on one store; `withStore` runs a body with a store open on it. */
async function killAndRestart(
  args: string[],
  withStore: <T>(body: (store: SessionStore) => Promise<T>) => Promise<T>,
  afterKill?: () => void,
): Promise<void> {
  const first = await start(args);
  const { acks, failures } = await loadAndKill(first);
  expect(failures).toEqual([]);
  expect(acks.length).toBeGreaterThanOrEqual(20);
  afterKill?.();

  const before = await withStore(async (store) => {
    const turns: Record<string, number> = {};
    for (const sessionId of SESSIONS) turns[sessionId] = await checkSession(store, sessionId, acks);
    return turns;
  });
  // Turns still in flight at the kill may have been committed too, never lost after their answer.
  const total = Object.values(before).reduce((a, b) => a + b, 0);
  expect(total).toBeGreaterThanOrEqual(acks.length);
  expect(total).toBeLessThanOrEqual(acks.length + CLIENTS);

  // A new server on the same store serves new turns on the same sessions, numbered after the old ones.
  const second = await start(args);
  const later: Ack[] = [];
  await Promise.all(
    SESSIONS.map(async (sessionId) => {
      for (let i = 0; i < 3; i++) {
        const message = `after-${i}`;
        const result = await chat(second.url, sessionId, message);
        expect(result.status, JSON.stringify(result.body)).toBe(200);
        expect(result.turn).toBe(before[sessionId]! + i + 1);
        later.push({ sessionId, message, turn: result.turn!, content: result.content! });
      }
    }),
  );
  expect(await second.stop()).toBe(0);
  await withStore(async (store) => {
    for (const sessionId of SESSIONS)
      expect(await checkSession(store, sessionId, [...acks, ...later])).toBe(before[sessionId]! + 3);
  });
}

describe('a server process killed with SIGKILL under load', () => {
  it('SQLite: keeps every acknowledged turn, a sound file and serves the sessions after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'treeagent-server-kill-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'treeagent.db');
    const integrity = () => {
      const db = new Database(file);
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      } finally {
        db.close();
      }
    };
    await killAndRestart(
      ['sqlite', dir],
      async (body) => {
        const store = new SqliteSessionStore(file);
        try {
          return await body(store);
        } finally {
          await store.close();
        }
      },
      integrity,
    );
    integrity();
  }, 60_000);

  it('PostgreSQL: keeps every acknowledged turn and serves the sessions after a restart', async () => {
    await requirePostgres();
    const { schema, drop } = testSchema('server_kill');
    const store = new PostgresSessionStore({ connection: TEST_DATABASE_URL, schema });
    cleanups.push(async () => {
      await store.close();
      await drop();
    });
    await killAndRestart(['postgres', TEST_DATABASE_URL, schema], (body) => body(store));
  }, 60_000);
});
