import { PostgresSessionStore } from '@treeagent/postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { InMemorySessionTokens } from './auth/session-tokens.js';
import { type RunningServer, serve } from './serve.js';
import { memoryLogger, testAgent } from './test-support/fixtures.js';

const DATABASE_URL =
  process.env.TREEAGENT_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:54329/treeagent_test';
const SCHEMA = `t_two_servers_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(SCHEMA)} CASCADE`);
  await client.end();
});

async function server(
  tokens: InMemorySessionTokens,
): Promise<{ running: RunningServer; store: PostgresSessionStore }> {
  const store = new PostgresSessionStore({ connection: DATABASE_URL, schema: SCHEMA });
  const running = await serve({
    agent: testAgent({ sessionStore: store }),
    port: 0,
    // The tokens are shared as a deployment would share them (for example in the same database).
    sessionTokens: tokens,
    logger: memoryLogger(),
  });
  cleanups.push(async () => {
    await running.close({ timeoutMs: 1000 });
    await store.close();
  });
  return { running, store };
}

const SESSIONS = 3;
const PER_CLIENT = 6;

describe('two serve() instances on one PostgreSQL', () => {
  it('keeps every acknowledged turn, in order, under concurrent turns on the same sessions', async () => {
    const tokens = new InMemorySessionTokens();
    const servers = [await server(tokens), await server(tokens)];
    const sessions: { sessionId: string; token: string }[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const response = await fetch(`${servers[i % 2]!.running.url}/api/v1/sessions`, { method: 'POST' });
      expect(response.status).toBe(201);
      sessions.push((await response.json()) as { sessionId: string; token: string });
    }
    type Ack = { sessionId: string; message: string; turn: number; client: string };
    const acks: Ack[] = [];
    // One sequential client per (server, session), all clients at once.
    const clients = servers.flatMap(({ running }, s) =>
      sessions.flatMap((session) =>
        [0, 1].map(async (c) => {
          const client = `srv${s}-c${c}`;
          for (let i = 0; i < PER_CLIENT; i++) {
            const message = i % 2 === 0 ? 'hello' : `${client}-${i}`;
            const response = await fetch(`${running.url}/api/v1/sessions/${session.sessionId}/messages`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json', 'X-Session-Token': session.token },
              body: JSON.stringify({ message }),
            });
            const body = (await response.json()) as { turn?: number };
            if (response.status === 200)
              acks.push({ sessionId: session.sessionId, message, turn: body.turn!, client });
            else expect([409, 503], JSON.stringify(body)).toContain(response.status);
          }
        }),
      ),
    );
    await Promise.all(clients);
    expect(acks.length).toBeGreaterThan(SESSIONS * 2 * 2 * PER_CLIENT * 0.9);

    for (const session of sessions) {
      const mine = acks.filter((ack) => ack.sessionId === session.sessionId);
      const history = await servers[1]!.store.history(session.sessionId);
      const users = history.filter((entry) => entry.role === 'user');
      // Turns are 1..n with no gap or duplicate, and each acknowledged turn is there with its message.
      expect(users.map((entry) => entry.turn)).toEqual(users.map((_, i) => i + 1));
      expect(users).toHaveLength(mine.length);
      for (const ack of mine) expect(users[ack.turn - 1]?.content).toBe(ack.message);
      // Each client saw its own turns in increasing order.
      for (const client of new Set(mine.map((ack) => ack.client))) {
        const turns = mine.filter((ack) => ack.client === client).map((ack) => ack.turn);
        expect(turns).toEqual([...turns].sort((a, b) => a - b));
      }
      // History entries of a turn are contiguous: turn numbers never decrease.
      const order = history.map((entry) => entry.turn);
      expect(order).toEqual([...order].sort((a, b) => a - b));
      // Every 'hello' turn has exactly its one answer.
      for (const entry of users.filter((user) => user.content === 'hello'))
        expect(history.filter((e) => e.turn === entry.turn && e.role === 'assistant')).toHaveLength(1);
    }
  }, 60_000);
});
