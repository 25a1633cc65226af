import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  requireDatabase,
  TEST_DATABASE_URL,
  testSchema,
} from '../../../postgres/src/test-support/database.js';
import { SseReader } from '../../../server/src/test-support/handoff.js';
import {
  CLUSTER_API_KEY,
  CLUSTER_OPERATOR,
  freePort,
  HANDOFF_MESSAGE,
  history,
  type LoadBalancer,
  newSession,
  type ServeProcess,
  type ServeProcessOptions,
  say,
  startHaproxy,
  startServeProcess,
  writeClusterFiles,
} from '../test-support/cluster.js';

/**
 * Three `treeagent serve` processes on one PostgreSQL schema behind a real HAProxy (Debian's
 * package), everything on 127.0.0.1: conversations spread over the processes with no turn lost or
 * doubled; a handoff made on one process reaches the console of an operator on another, and the
 * operator's reply reaches the user's live stream on a third; `kill -9` of a process under load keeps
 * every acknowledged turn while clients retry on the others; a rolling restart fails no request.
 */

const PROCESSES = 3;
const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-cluster-', import.meta.url)));
type Session = { sessionId: string; token: string };

let processes: ServeProcess[] = [];
let options: ServeProcessOptions[] = [];
let balancer: LoadBalancer;
let dropSchema: () => Promise<void> = async () => {};

beforeAll(async () => {
  await requireDatabase();
  const { schema, drop } = testSchema('cluster');
  dropSchema = drop;
  const files = await writeClusterFiles(scratch);
  const ports = await Promise.all(Array.from({ length: PROCESSES }, () => freePort()));
  options = ports.map((port, i) => ({
    files,
    port,
    data: join(scratch, `data-${i}`),
    databaseUrl: TEST_DATABASE_URL,
    schema,
  }));
  // The first creates the tables; the others start together.
  processes = [await startServeProcess(options[0]!)];
  processes.push(...(await Promise.all(options.slice(1).map((option) => startServeProcess(option)))));
  balancer = await startHaproxy(join(scratch, 'haproxy'), ports);
}, 240_000);

afterAll(async () => {
  await balancer?.stop();
  for (const server of processes) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  await Promise.all(processes.map((server) => server.exited));
  await dropSchema();
  rmSync(scratch, { recursive: true, force: true });
});

interface Ack {
  message: string;
  turn: number;
}

/**
 * The session's history is whole turns 1..n, each its user message then its answer, whose count
 * equals its turn (no lost update); every acknowledged turn is there at its number with its message.
 * Returns the user messages in order.
 */
async function checkHistory(session: Session, acks: Ack[]): Promise<string[]> {
  const entries = await history(`${balancer.url}`, session);
  expect(entries.length % 2, 'no half turn').toBe(0);
  const messages: string[] = [];
  entries.forEach((entry, i) => {
    expect(entry.turn).toBe(Math.floor(i / 2) + 1);
    expect(entry.role).toBe(i % 2 === 0 ? 'user' : 'assistant');
    if (i % 2 === 0) messages.push(entry.content);
    else expect(entry.content).toBe(`turn ${entry.turn} count ${entry.turn} re ${messages.at(-1)}`);
  });
  for (const ack of acks) expect(messages[ack.turn - 1], `acknowledged turn ${ack.turn}`).toBe(ack.message);
  return messages;
}

/**
 * `clients` sessions, one sequential client each, talking through the load balancer until `until()`.
 * With `retry`, a turn that got no answer (connection reset, 502, 503) is sent again, as a client
 * does; without it, anything but 200 is a failure.
 */
async function load(
  clients: number,
  until: () => boolean,
  retry: boolean,
): Promise<{
  sessions: Session[];
  acks: Ack[][];
  retried: Set<string>[];
  failures: string[];
  servedBy: Set<string>;
}> {
  const sessions = await Promise.all(Array.from({ length: clients }, () => newSession(balancer.url)));
  const acks = sessions.map((): Ack[] => []);
  const retried = sessions.map(() => new Set<string>());
  const failures: string[] = [];
  const servedBy = new Set<string>();
  await Promise.all(
    sessions.map(async (session, c) => {
      for (let i = 0; !until(); i++) {
        const message = `c${c}-m${i}`;
        for (let attempt = 0; ; attempt++) {
          const result = await say(balancer.url, session, message).catch((error: Error) => ({
            status: 0,
            body: error.message,
            servedBy: null,
            turn: undefined,
            content: undefined,
          }));
          if (result.status === 200) {
            acks[c]!.push({ message, turn: result.turn! });
            if (result.servedBy) servedBy.add(result.servedBy);
            expect(result.content).toBe(`turn ${result.turn} count ${result.turn} re ${message}`);
            break;
          }
          if (!retry || attempt >= 20) {
            failures.push(`${message}: ${result.status} ${JSON.stringify(result.body)}`);
            break;
          }
          retried[c]!.add(message);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    }),
  );
  return { sessions, acks, retried, failures, servedBy };
}

const deadline = (ms: number) => {
  const end = Date.now() + ms;
  return () => Date.now() > end;
};

describe('three treeagent serve processes behind HAProxy on PostgreSQL', () => {
  it('spread conversations over every process, with no turn lost or doubled', async () => {
    const { sessions, acks, failures, servedBy } = await load(9, deadline(2500), false);
    expect(failures).toEqual([]);
    expect([...servedBy].sort()).toEqual(['p0', 'p1', 'p2']);
    for (const [c, session] of sessions.entries()) {
      const messages = await checkHistory(session, acks[c]!);
      // Exactly the acknowledged turns, each once, in the order sent.
      expect(messages).toEqual(acks[c]!.map((ack) => ack.message));
    }
    expect(acks.flat().length).toBeGreaterThanOrEqual(30);
  }, 60_000);

  it('hand a session off on one process to the console on another; the reply reaches the user live on a third', async () => {
    const [p0, p1, p2] = processes;
    const login = await fetch(`${p0!.url}/api/v1/operator/login`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CLUSTER_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(CLUSTER_OPERATOR),
    });
    expect(login.status).toBe(200);
    const operatorToken = /treeagent_operator=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1]!;
    const operator = { authorization: `Bearer ${CLUSTER_API_KEY}`, 'x-operator-token': operatorToken };
    // The console's live stream on p0.
    const consoleEvents = new SseReader(
      await fetch(`${p0!.url}/api/v1/operator/events`, { headers: operator }),
    );
    await consoleEvents.waitFor((event) => event.event === 'queue');
    const seen = consoleEvents.events.length;

    // The user on p1 asks for a person.
    const session = await newSession(p1!.url);
    const handedOff = await say(p1!.url, session, HANDOFF_MESSAGE);
    expect(handedOff.status).toBe(200);
    expect((handedOff.body as { status: string }).status).toBe('handed-off');
    // p0's console hears of it through PostgreSQL's LISTEN/NOTIFY, not by polling.
    await consoleEvents.waitFor((event) => consoleEvents.events.indexOf(event) >= seen, 3000);

    // The user's live stream on p2; the operator claims and replies through the load balancer.
    const userEvents = new SseReader(
      await fetch(`${p2!.url}/api/v1/sessions/${session.sessionId}/events`, {
        headers: { authorization: `Bearer ${CLUSTER_API_KEY}`, 'x-session-token': session.token },
      }),
    );
    const queue = (await (
      await fetch(`${balancer.url}/api/v1/operator/handoffs?status=open&queue=cluster`, { headers: operator })
    ).json()) as { handoffs: { sessionId: string; status: string }[] };
    expect(queue.handoffs).toHaveLength(1);
    const id = queue.handoffs[0]!.sessionId;
    const claim = await fetch(`${balancer.url}/api/v1/operator/handoffs/${encodeURIComponent(id)}/claim`, {
      method: 'POST',
      headers: { ...operator, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(claim.status, await claim.clone().text()).toBe(200);
    const reply = await fetch(`${balancer.url}/api/v1/operator/handoffs/${encodeURIComponent(id)}/messages`, {
      method: 'POST',
      headers: { ...operator, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Bruno here, from another process.' }),
    });
    expect(reply.status, await reply.clone().text()).toBe(201);
    const entry = await userEvents.waitFor(
      (event) =>
        event.event === 'entry' &&
        (event.data as { entry?: { content?: string } }).entry?.content ===
          'Bruno here, from another process.',
      3000,
    );
    expect(entry.data.entry.role).toBe('assistant');
    await Promise.all([consoleEvents.close(), userEvents.close()]);
  }, 60_000);

  it('kill -9 of a process under load: every acknowledged turn is kept, clients retry on the others', async () => {
    let stop = false;
    const running = load(8, () => stop, true);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    processes[1]!.child.kill('SIGKILL');
    expect(await processes[1]!.exited).toBe('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    stop = true;
    const { sessions, acks, retried, failures } = await running;
    expect(failures).toEqual([]);
    // Turns in flight on the killed process got no answer (HAProxy does not replay them): the clients
    // sent them again, and the load balancer sent those to the living processes.
    expect(retried.reduce((sum, messages) => sum + messages.size, 0)).toBeGreaterThan(0);
    for (const [c, session] of sessions.entries()) {
      const messages = await checkHistory(session, acks[c]!);
      // A turn committed by the killed process but never answered is in the history, and its retry
      // too: only such a retried message may appear twice, and never more.
      const counts = new Map<string, number>();
      for (const message of messages) counts.set(message, (counts.get(message) ?? 0) + 1);
      for (const [message, count] of counts) {
        expect(count).toBeLessThanOrEqual(retried[c]!.has(message) ? 2 : 1);
      }
      expect(new Set(messages)).toEqual(new Set(acks[c]!.map((ack) => ack.message)));
    }
    // The killed process comes back on its port and HAProxy takes it again.
    processes[1] = await startServeProcess(options[1]!);
    await balancer.waitFor('p1', true);
  }, 120_000);

  it('a rolling restart (out of rotation, SIGTERM, start, back in) fails no request', async () => {
    let stop = false;
    const running = load(8, () => stop, false);
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (let i = 0; i < PROCESSES; i++) {
      await balancer.admin(`set server app/p${i} state maint`);
      await balancer.waitFor(`p${i}`, false);
      processes[i]!.child.kill('SIGTERM');
      expect(await processes[i]!.exited).toBe(0);
      processes[i] = await startServeProcess(options[i]!);
      await balancer.admin(`set server app/p${i} state ready`);
      await balancer.waitFor(`p${i}`, true);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    stop = true;
    const { sessions, acks, failures, servedBy } = await running;
    expect(failures).toEqual([]);
    expect([...servedBy].sort()).toEqual(['p0', 'p1', 'p2']);
    for (const [c, session] of sessions.entries()) {
      expect(await checkHistory(session, acks[c]!)).toEqual(acks[c]!.map((ack) => ack.message));
    }
  }, 240_000);
});
