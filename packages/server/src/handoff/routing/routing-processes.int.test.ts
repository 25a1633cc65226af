import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_PASSWORDS, testOperatorAccounts } from '../../test-support/operators.js';
import {
  requirePostgres,
  type ServerProcess,
  startServerProcess,
  TEST_DATABASE_URL,
  testSchema,
} from '../../test-support/server-process.js';

const SCRIPT = fileURLToPath(new URL('../../test-support/handoff-server-process.ts', import.meta.url));
const json = { 'Content-Type': 'application/json' };

/**
 * Queue assignment across two server processes on one PostgreSQL database: Bruno is online through
 * one process, Carla through the other; conversations handed off alternately on both are assigned by
 * one shared round robin (bruno, carla, bruno, carla), and with a maximum of two each the fifth waits.
 */
describe('round robin on PostgreSQL with two server processes', () => {
  const servers: ServerProcess[] = [];
  let drop: () => Promise<void>;

  beforeAll(async () => {
    await requirePostgres();
    const accounts = (await testOperatorAccounts()).map((account) => ({ ...account, teams: ['support'] }));
    const env = {
      TREEAGENT_TEST_OPERATORS: JSON.stringify({ operators: accounts }),
      TREEAGENT_TEST_TEAMS: JSON.stringify({ support: { policy: 'round-robin', maxConcurrent: 2 } }),
    };
    const made = testSchema('routing');
    drop = made.drop;
    for (let index = 0; index < 2; index++)
      servers.push(
        await startServerProcess(['postgres', TEST_DATABASE_URL, made.schema], {
          script: SCRIPT,
          env,
          timeoutMs: 60_000,
        }),
      );
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) await server.stop().catch(() => {});
    await drop?.();
  }, 60_000);

  async function login(url: string, name: 'bruno' | 'carla'): Promise<string> {
    const response = await fetch(`${url}/api/v1/operator/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ login: name, password: OPERATOR_PASSWORDS[name] }),
    });
    return /treeagent_operator=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')![1]!;
  }

  async function handOff(url: string): Promise<string> {
    const { sessionId, token } = (await (
      await fetch(`${url}/api/v1/sessions`, { method: 'POST' })
    ).json()) as {
      sessionId: string;
      token: string;
    };
    const response = await fetch(`${url}/api/v1/sessions/${sessionId}/messages`, {
      method: 'POST',
      headers: { ...json, 'X-Session-Token': token },
      body: JSON.stringify({ message: 'I want a human' }),
    });
    expect(response.status).toBe(200);
    return sessionId;
  }

  it('assigns in turn from both processes and respects the maximum per operator', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const bruno = await login(a.url, 'bruno');
    const carla = await login(b.url, 'carla');
    for (const [url, token] of [
      [a.url, bruno],
      [b.url, carla],
    ] as const) {
      const response = await fetch(`${url}/api/v1/operator/routing/presence`, {
        method: 'PUT',
        headers: { ...json, 'X-Operator-Token': token },
        body: JSON.stringify({ status: 'online' }),
      });
      expect(response.status).toBe(200);
    }
    const holder = async (sessionId: string) => {
      const response = await fetch(`${a.url}/api/v1/operator/handoffs/${sessionId}`, {
        headers: { 'X-Operator-Token': bruno },
      });
      return (
        ((await response.json()) as { state: { operator: { id: string } | null } | null }).state?.operator
          ?.id ?? null
      );
    };
    const holders: (string | null)[] = [];
    for (let index = 0; index < 4; index++) {
      const sessionId = await handOff(index % 2 ? b.url : a.url);
      await expect.poll(() => holder(sessionId), { timeout: 15_000 }).not.toBeNull();
      holders.push(await holder(sessionId));
    }
    expect(holders).toEqual(['bruno', 'carla', 'bruno', 'carla']);
    const fifth = await handOff(b.url);
    // Give the assignment its chance, then check it waits (both hold their maximum of two).
    const detail = async () =>
      (await (
        await fetch(`${b.url}/api/v1/operator/handoffs/${fifth}`, { headers: { 'X-Operator-Token': carla } })
      ).json()) as { handoff: { status: string } | null };
    await expect.poll(async () => (await detail()).handoff?.status, { timeout: 15_000 }).toBe('waiting');
    expect(await holder(fifth)).toBeNull();
  });
});
