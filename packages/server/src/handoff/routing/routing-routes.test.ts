import { InMemoryAuditLog } from '@treeagent/core/adapter';
import { beforeAll, describe, expect, it } from 'vitest';
import { type OperatorAccount, operatorDirectory } from '../../operators/operator-accounts.js';
import { createSession, postMessage, testApp } from '../../test-support/fixtures.js';
import { handoffAgent } from '../../test-support/handoff.js';
import { loginOperator, testOperatorAccounts } from '../../test-support/operators.js';
import type { HandoffOptions } from '../handoff-service.js';

type App = ReturnType<typeof testApp>['app'];
const json = { 'Content-Type': 'application/json' };
let accounts: OperatorAccount[];

beforeAll(async () => {
  // Bruno works in support; Carla in support and sales; Anna (admin) everywhere.
  const teams: Record<string, string[]> = { bruno: ['support'], carla: ['support', 'sales'] };
  accounts = (await testOperatorAccounts()).map((account) =>
    teams[account.id] ? { ...account, teams: teams[account.id] } : account,
  );
});

function desk(handoff: HandoffOptions) {
  const auditLog = new InMemoryAuditLog();
  const { app } = testApp({
    agent: handoffAgent(),
    operators: { directory: operatorDirectory(accounts), auditLog },
    handoff: { streamPollMs: 200, ...handoff },
  });
  return { app, auditLog };
}

function call(app: App, token: string, method: string, path: string, body?: unknown) {
  return app.request(`/api/v1/operator${path}`, {
    method,
    headers: { 'X-Operator-Token': token, ...(body === undefined ? {} : json) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** A new user who asks for a human (queue "support"); resolves to the session id. */
async function handOff(app: App): Promise<string> {
  const session = await createSession(app);
  const response = await postMessage(app, session, { message: 'I want a human' });
  expect(((await response.json()) as { status: string }).status).toBe('handed-off');
  return session.sessionId;
}

async function holderOf(app: App, token: string, sessionId: string): Promise<string | null> {
  const detail = (await (await call(app, token, 'GET', `/handoffs/${sessionId}`)).json()) as {
    state: { operator: { id: string } | null } | null;
  };
  return detail.state?.operator?.id ?? null;
}

describe('teams and routing over HTTP', () => {
  it('round robin: new conversations go in turn to the online operators of the team, never to one away', async () => {
    const { app, auditLog } = desk({ teams: { support: { policy: 'round-robin' } } });
    const bruno = await loginOperator(app, 'bruno');
    const carla = await loginOperator(app, 'carla');
    expect((await call(app, bruno, 'PUT', '/routing/presence', { status: 'online' })).status).toBe(200);
    expect((await call(app, carla, 'PUT', '/routing/presence', { status: 'online' })).status).toBe(200);
    const holders: (string | null)[] = [];
    for (let index = 0; index < 3; index++) {
      const sessionId = await handOff(app);
      await expect.poll(() => holderOf(app, bruno, sessionId)).not.toBeNull();
      holders.push(await holderOf(app, bruno, sessionId));
    }
    expect(holders).toEqual(['bruno', 'carla', 'bruno']);
    await call(app, carla, 'PUT', '/routing/presence', { status: 'away' });
    const next = await handOff(app);
    await expect.poll(() => holderOf(app, bruno, next)).toBe('bruno');
    const assigned = await auditLog.list({ action: 'handoff.assign', limit: 10 });
    expect(assigned[0]).toMatchObject({
      actorId: 'bruno',
      detail: { policy: 'round-robin', team: 'support' },
    });
    const presence = (await (await call(app, bruno, 'GET', '/routing/presence')).json()) as {
      presence: { operatorId: string; status: string; teams: string[] }[];
      teams: { team: string; policy: string; open: boolean }[];
    };
    expect(presence.presence.map((item) => [item.operatorId, item.status, item.teams])).toEqual([
      ['bruno', 'online', ['support']],
      ['carla', 'away', ['support', 'sales']],
    ]);
    expect(presence.teams).toContainEqual({ team: 'support', policy: 'round-robin', open: true });
  });

  it('least busy with a maximum per operator: the one holding fewer gets it; when all are full it waits until someone comes online', async () => {
    const { app } = desk({ teams: { support: { policy: 'least-busy', maxConcurrent: 1 } } });
    const bruno = await loginOperator(app, 'bruno');
    const carla = await loginOperator(app, 'carla');
    const anna = await loginOperator(app, 'anna');
    await call(app, bruno, 'PUT', '/routing/presence', { status: 'online' });
    const first = await handOff(app);
    await expect.poll(() => holderOf(app, bruno, first)).toBe('bruno');
    await call(app, carla, 'PUT', '/routing/presence', { status: 'online' });
    const second = await handOff(app);
    await expect.poll(() => holderOf(app, bruno, second)).toBe('carla');
    // Both hold their maximum: the third waits in the queue…
    const third = await handOff(app);
    await expect
      .poll(
        async () =>
          ((await (await call(app, bruno, 'GET', `/handoffs/${third}`)).json()) as any).handoff?.status,
      )
      .toBe('waiting');
    expect(await holderOf(app, bruno, third)).toBeNull();
    // …until an operator of the team comes online.
    await call(app, anna, 'PUT', '/routing/presence', { status: 'online' });
    await expect.poll(() => holderOf(app, bruno, third)).toBe('anna');
  });

  it('transfer to another team with a note, then to an operator; only the holder (or an admin) passes it on', async () => {
    const { app, auditLog } = desk({ teams: { sales: { policy: 'round-robin' } } });
    const bruno = await loginOperator(app, 'bruno');
    const carla = await loginOperator(app, 'carla');
    await call(app, carla, 'PUT', '/routing/presence', { status: 'online' });
    const sessionId = await handOff(app);
    await call(app, bruno, 'POST', `/handoffs/${sessionId}/claim`, {});
    const refused = await call(app, carla, 'POST', `/routing/handoffs/${sessionId}/transfer`, {
      team: 'sales',
    });
    expect(refused.status).toBe(409);
    const both = await call(app, bruno, 'POST', `/routing/handoffs/${sessionId}/transfer`, {
      team: 'sales',
      operatorId: 'carla',
    });
    expect(both.status).toBe(400);
    expect(JSON.stringify(await both.json())).toContain('not both');
    const neither = await call(app, bruno, 'POST', `/routing/handoffs/${sessionId}/transfer`, { note: 'x' });
    expect(neither.status).toBe(400);
    const said = JSON.stringify(await neither.json());
    expect(said).toContain('give operatorId');
    expect(said).not.toContain('not both');
    const moved = await call(app, bruno, 'POST', `/routing/handoffs/${sessionId}/transfer`, {
      team: 'sales',
      note: 'Asks for a quote on 40 bikes.',
    });
    expect(moved.status).toBe(200);
    // Sales assigns by round robin: Carla is the one online in sales.
    // It left Bruno's team (support): sales' Carla holds it, and Bruno no longer sees it.
    await expect.poll(() => holderOf(app, carla, sessionId)).toBe('carla');
    expect((await call(app, bruno, 'GET', `/handoffs/${sessionId}`)).status).toBe(404);
    const detail = (await (await call(app, carla, 'GET', `/handoffs/${sessionId}`)).json()) as any;
    expect(detail.handoff.queue).toBe('sales');
    expect(detail.notes.map((note: { text: string }) => note.text)).toEqual([
      'Asks for a quote on 40 bikes.',
    ]);
    const back = await call(app, carla, 'POST', `/routing/handoffs/${sessionId}/transfer`, {
      operatorId: 'bruno',
    });
    expect(back.status).toBe(400); // Bruno set no presence: not online
    await call(app, bruno, 'PUT', '/routing/presence', { status: 'away' });
    expect(
      (await call(app, carla, 'POST', `/routing/handoffs/${sessionId}/transfer`, { operatorId: 'bruno' }))
        .status,
    ).toBe(200);
    expect(await holderOf(app, bruno, sessionId)).toBe('bruno');
    expect(
      (await auditLog.list({ action: 'handoff.transfer', limit: 10 })).map((entry) => entry.detail),
    ).toEqual([
      { queue: 'sales', operatorId: 'bruno' },
      { queue: 'support', team: 'sales' },
    ]);
  });

  it("another team's waiting conversation is not found for a transfer: an operator passes on only what they may see", async () => {
    const { app, auditLog } = desk({ teams: { sales: { policy: 'manual' } } });
    const anna = await loginOperator(app, 'anna');
    const bruno = await loginOperator(app, 'bruno');
    const sessionId = await handOff(app);
    // An admin puts it in sales, where it waits: not Bruno's team.
    await call(app, anna, 'POST', `/handoffs/${sessionId}/claim`, {});
    expect(
      (await call(app, anna, 'POST', `/routing/handoffs/${sessionId}/transfer`, { team: 'sales' })).status,
    ).toBe(200);
    const refused = await call(app, bruno, 'POST', `/routing/handoffs/${sessionId}/transfer`, {
      team: 'support',
    });
    expect(refused.status).toBe(404);
    expect((await auditLog.list({ action: 'handoff.transfer', limit: 10 })).length).toBe(1);
  });

  it('lists every configured team, with nobody of it online (a transfer can put a conversation in its queue)', async () => {
    const { app } = desk({
      teams: { billing: { policy: 'least-busy' }, support: { policy: 'round-robin' } },
    });
    const bruno = await loginOperator(app, 'bruno');
    // Nobody has set a presence and no conversation waits: the teams come from the configuration.
    const presence = (await (await call(app, bruno, 'GET', '/routing/presence')).json()) as {
      teams: { team: string; policy: string; open: boolean }[];
    };
    expect(presence.teams).toEqual([
      { team: 'billing', policy: 'least-busy', open: true },
      { team: 'support', policy: 'round-robin', open: true },
    ]);
    // And the transfer there is accepted: the conversation waits in billing's queue.
    const sessionId = await handOff(app);
    expect((await call(app, bruno, 'POST', `/handoffs/${sessionId}/claim`, {})).status).toBe(200);
    const moved = await call(app, bruno, 'POST', `/routing/handoffs/${sessionId}/transfer`, {
      team: 'billing',
    });
    expect(moved.status).toBe(200);
  });

  it("out of hours: the team says it is closed, the conversation waits with the user's messages, nobody is assigned", async () => {
    const { app } = desk({
      teams: {
        support: {
          policy: 'round-robin',
          name: 'Support',
          hours: { timeZone: 'Europe/Rome', open: {} },
          outOfHoursMessage: 'We are closed: leave a message and we answer tomorrow from 9.',
        },
      },
    });
    const bruno = await loginOperator(app, 'bruno');
    await call(app, bruno, 'PUT', '/routing/presence', { status: 'online' });
    const session = await createSession(app);
    await postMessage(app, session, { message: 'I want a human' });
    const history = async () =>
      (
        (await (
          await app.request(`/api/v1/sessions/${session.sessionId}/history`, {
            headers: { 'X-Session-Token': session.token },
          })
        ).json()) as { history: { content: string; operator?: { name: string } }[] }
      ).history;
    await expect
      .poll(async () => (await history()).map((entry) => entry.content))
      .toContain('We are closed: leave a message and we answer tomorrow from 9.');
    expect((await history()).find((entry) => entry.content.startsWith('We are closed'))?.operator?.name).toBe(
      'Support',
    );
    const left = await postMessage(app, session, { message: 'My order 123 is late' });
    expect(((await left.json()) as { status: string }).status).toBe('handed-off');
    const detail = (await (await call(app, bruno, 'GET', `/handoffs/${session.sessionId}`)).json()) as any;
    expect(detail.state.operator).toBeNull();
    expect(detail.handoff.status).toBe('waiting');
    const teams = (await (await call(app, bruno, 'GET', '/routing/presence')).json()) as any;
    expect(teams.teams).toContainEqual({ team: 'support', policy: 'round-robin', open: false });
  });
});
