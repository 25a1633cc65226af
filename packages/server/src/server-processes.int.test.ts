import { PostgresSessionStore } from '@treeagent/postgres';
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
 * Two real server processes (`node --import tsx test-support/server-process.ts`) on one PostgreSQL
 * schema, with concurrent turns on the same sessions split across both: the session lock and the
 * versioned commit must keep every acknowledged turn, numbered consecutively, never interleaved.
 */

const SESSIONS = ['p0', 'p1', 'p2', 'p3'];
/** Sequential clients per (server, session). */
const CLIENTS_PER_PAIR = 2;
const TURNS_PER_CLIENT = 8;

const cleanups = cleanupsAfterEach();
const start = serverStarter(cleanups);

interface Ack {
  sessionId: string;
  client: string;
  server: number;
  message: string;
  turn: number;
  content: string;
}

describe('two server processes on one PostgreSQL', () => {
  it('keep every acknowledged turn, numbered consecutively, under concurrent turns on the same sessions', async () => {
    await requirePostgres();
    const { schema, drop } = testSchema('server_procs');
    const store = new PostgresSessionStore({ connection: TEST_DATABASE_URL, schema });
    cleanups.push(async () => {
      await store.close();
      await drop();
    });
    const servers: ServerProcess[] = await Promise.all(
      [0, 1].map(() => start(['postgres', TEST_DATABASE_URL, schema])),
    );
    expect(servers[0]!.url).not.toBe(servers[1]!.url);

    const acks: Ack[] = [];
    const failures: string[] = [];
    await Promise.all(
      servers.flatMap((server, s) =>
        SESSIONS.flatMap((sessionId) =>
          Array.from({ length: CLIENTS_PER_PAIR }, async (_, c) => {
            const client = `srv${s}-${sessionId}-c${c}`;
            for (let i = 0; i < TURNS_PER_CLIENT; i++) {
              const message = `${client}-m${i}`;
              const result = await chat(server.url, sessionId, message);
              if (result.turn !== undefined)
                acks.push({
                  sessionId,
                  client,
                  server: s,
                  message,
                  turn: result.turn,
                  content: result.content!,
                });
              // 409 SESSION_CONFLICT asks for a retry and commits nothing; anything else is a failure.
              else if (result.status !== 409)
                failures.push(`${result.status} ${JSON.stringify(result.body)}`);
            }
          }),
        ),
      ),
    );
    expect(failures).toEqual([]);
    const sent = servers.length * SESSIONS.length * CLIENTS_PER_PAIR * TURNS_PER_CLIENT;
    expect(acks.length).toBeGreaterThanOrEqual(sent * 0.9);

    for (const sessionId of SESSIONS) {
      const mine = acks.filter((ack) => ack.sessionId === sessionId);
      // Both processes ran turns of this session.
      expect(new Set(mine.map((ack) => ack.server))).toEqual(new Set([0, 1]));
      const history = await store.history(openAiEngineSessionId(SERVER_PROCESS_API_KEY, sessionId));
      const record = await store.load(openAiEngineSessionId(SERVER_PROCESS_API_KEY, sessionId));
      // Only acknowledged turns were committed (no kill here): exactly one history turn per ack.
      expect(history).toHaveLength(2 * mine.length);
      expect(record?.turn).toBe(mine.length);
      // Whole turns 1..n in order: user then its answer, never another turn's entry in between.
      history.forEach((entry, i) => {
        expect(entry.turn).toBe(Math.floor(i / 2) + 1);
        expect(entry.role).toBe(i % 2 === 0 ? 'user' : 'assistant');
      });
      // Each answer names its turn and the turns counted in the session state: no lost update.
      for (let t = 1; t <= mine.length; t++)
        expect(history[2 * t - 1]!.content).toBe(`turn ${t} count ${t} re ${history[2 * t - 2]!.content}`);
      // Every acknowledged turn is there, at the turn its response gave, with its message.
      expect(new Set(mine.map((ack) => ack.turn)).size).toBe(mine.length);
      for (const ack of mine) {
        expect(history[2 * ack.turn - 2]!.content).toBe(ack.message);
        expect(ack.content).toBe(`turn ${ack.turn} count ${ack.turn} re ${ack.message}`);
      }
      // Each sequential client saw its turns in increasing order.
      for (const client of new Set(mine.map((ack) => ack.client))) {
        const turns = mine.filter((ack) => ack.client === client).map((ack) => ack.turn);
        expect(turns).toEqual([...turns].sort((a, b) => a - b));
      }
    }
    expect(await Promise.all(servers.map((server) => server.stop()))).toEqual([0, 0]);
  }, 60_000);
});
