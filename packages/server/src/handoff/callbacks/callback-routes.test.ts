import { InMemoryAuditLog } from '@treeagent/core/adapter';
import { beforeAll, describe, expect, it } from 'vitest';
import { type OperatorAccount, operatorDirectory } from '../../operators/operator-accounts.js';
import { createSession, postMessage, testApp } from '../../test-support/fixtures.js';
import { handoffAgent } from '../../test-support/handoff.js';
import { loginOperator, testOperatorAccounts } from '../../test-support/operators.js';

type App = ReturnType<typeof testApp>['app'];
const json = { 'Content-Type': 'application/json' };
let accounts: OperatorAccount[];

beforeAll(async () => {
  // Carla works in support, Bruno in sales; Anna (admin) everywhere.
  const teams: Record<string, string[]> = { bruno: ['sales'], carla: ['support'] };
  accounts = (await testOperatorAccounts()).map((account) =>
    teams[account.id] ? { ...account, teams: teams[account.id] } : account,
  );
});

/** A desk whose support team is closed (business hours with no open day), unless `open`. */
function desk(open = false) {
  const auditLog = new InMemoryAuditLog();
  const { app, logger } = testApp({
    agent: handoffAgent(),
    operators: { directory: operatorDirectory(accounts), auditLog },
    handoff: {
      teams: {
        support: {
          hours: {
            timeZone: 'Europe/Rome',
            open: open
              ? {
                  mon: ['00:00-24:00'],
                  tue: ['00:00-24:00'],
                  wed: ['00:00-24:00'],
                  thu: ['00:00-24:00'],
                  fri: ['00:00-24:00'],
                  sat: ['00:00-24:00'],
                  sun: ['00:00-24:00'],
                }
              : {},
          },
        },
      },
    },
  });
  return { app, auditLog, logger };
}

/** A user who asks for a human (team support), once the team's routing (out of hours: its message) is done. */
async function handOff(app: App) {
  const session = await createSession(app);
  await postMessage(app, session, { message: 'I want a human' });
  const history = async () =>
    (
      (await (
        await app.request(`/api/v1/sessions/${session.sessionId}/history`, {
          headers: { 'X-Session-Token': session.token },
        })
      ).json()) as { history: { handoff?: { type: string } }[] }
    ).history.map((entry) => entry.handoff?.type);
  // Closed: the team joins, writes and leaves; open (manual): nobody joins.
  await expect.poll(async () => (await history()).at(-1)).toMatch(/^(release|start)$/);
  return session;
}

function asUser(app: App, session: { sessionId: string; token: string }, method: string, body?: unknown) {
  return app.request(`/api/v1/sessions/${session.sessionId}/callback`, {
    method,
    headers: { 'X-Session-Token': session.token, ...(body === undefined ? {} : json) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

function asOperator(app: App, token: string, method: string, path: string, body?: unknown) {
  return app.request(path, {
    method,
    headers: { 'X-Operator-Token': token, ...(body === undefined ? {} : json) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const REQUEST = {
  contact: { kind: 'phone', value: '+39 333 1234567' },
  window: { date: '2026-12-07', from: '09:00', to: '11:00' },
};

describe('callback requests out of hours', () => {
  it('the user leaves a phone number and a window while the team is closed; the team sees it, marks it done (audited); other teams do not', async () => {
    const { app, auditLog, logger } = desk();
    const session = await handOff(app);
    expect(await (await asUser(app, session, 'GET')).json()).toEqual({
      offered: true,
      timeZone: 'Europe/Rome',
      request: null,
    });

    const bad = await asUser(app, session, 'POST', {
      ...REQUEST,
      contact: { kind: 'phone', value: 'call me' },
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('contact.value is not a phone number');
    const backwards = await asUser(app, session, 'POST', {
      ...REQUEST,
      window: { date: '2026-12-07', from: '11:00', to: '09:00' },
    });
    expect(backwards.status).toBe(400);
    expect(await backwards.text()).toContain('window.to must come after window.from');

    const created = await asUser(app, session, 'POST', REQUEST);
    expect(created.status).toBe(201);
    const { request } = (await created.json()) as { request: { id: string } };
    expect((await asUser(app, session, 'POST', REQUEST)).status).toBe(409);
    expect(await (await asUser(app, session, 'GET')).json()).toMatchObject({
      request: { id: request.id, contact: REQUEST.contact, window: REQUEST.window, status: 'open' },
    });

    const carla = await loginOperator(app, 'carla');
    const bruno = await loginOperator(app, 'bruno');
    const listed = (await (
      await asOperator(app, carla, 'GET', '/api/v1/operator/callbacks?status=open')
    ).json()) as {
      callbacks: { id: string; team: string; timeZone: string; contact: unknown }[];
    };
    expect(listed.callbacks).toEqual([
      expect.objectContaining({
        id: request.id,
        team: 'support',
        timeZone: 'Europe/Rome',
        contact: REQUEST.contact,
      }),
    ]);
    expect(await (await asOperator(app, bruno, 'GET', '/api/v1/operator/callbacks')).json()).toEqual({
      callbacks: [],
    });
    expect(
      (await asOperator(app, bruno, 'POST', `/api/v1/operator/callbacks/${request.id}/done`)).status,
    ).toBe(404);

    const done = await asOperator(app, carla, 'POST', `/api/v1/operator/callbacks/${request.id}/done`);
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ callback: { status: 'done', doneBy: 'carla' } });
    expect(
      (await asOperator(app, carla, 'POST', `/api/v1/operator/callbacks/${request.id}/done`)).status,
    ).toBe(409);
    expect(
      await (await asOperator(app, carla, 'GET', '/api/v1/operator/callbacks?status=open')).json(),
    ).toEqual({
      callbacks: [],
    });
    const audit = await auditLog.list({ sessionId: session.sessionId, limit: 50 });
    const entry = audit.find((item) => item.action === 'callback.done');
    expect(entry).toMatchObject({ actorId: 'carla', detail: { id: request.id, team: 'support' } });
    // The contact never reaches the audit log or the logs.
    expect(JSON.stringify(audit)).not.toContain('1234567');
    expect(JSON.stringify(logger.entries)).not.toContain('1234567');
  });

  it('is refused while the team is open, before any handoff, and without the session token', async () => {
    const { app } = desk(true);
    const session = await handOff(app);
    expect(await (await asUser(app, session, 'GET')).json()).toMatchObject({ offered: false });
    const refused = await asUser(app, session, 'POST', REQUEST);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: { code: 'CALLBACK_NOT_OFFERED' } });
    const fresh = await createSession(app);
    expect((await asUser(app, fresh, 'POST', REQUEST)).status).toBe(409);
    expect(
      (
        await app.request(`/api/v1/sessions/${session.sessionId}/callback`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify(REQUEST),
        })
      ).status,
    ).toBe(401);
  });

  it('the personal-data export lists the callback requests and the rating; the deletion removes both', async () => {
    const { app } = desk();
    const session = await handOff(app);
    expect(
      (
        await asUser(app, session, 'POST', {
          ...REQUEST,
          contact: { kind: 'email', value: 'ada@example.com' },
        })
      ).status,
    ).toBe(201);
    // The operator answers and closes: the user rates the conversation.
    const anna = await loginOperator(app, 'anna');
    const path = `/api/v1/operator/handoffs/${session.sessionId}`;
    expect((await asOperator(app, anna, 'POST', `${path}/claim`, {})).status).toBe(200);
    expect((await asOperator(app, anna, 'POST', `${path}/close`, {})).status).toBe(200);
    const rated = await app.request(`/api/v1/sessions/${session.sessionId}/satisfaction`, {
      method: 'POST',
      headers: { 'X-Session-Token': session.token, ...json },
      body: JSON.stringify({ rating: 4, comment: 'Quick, thanks' }),
    });
    expect(rated.status).toBe(201);

    const exported = (await (
      await asOperator(app, anna, 'POST', '/api/v1/personal-data/export', { sessionIds: [session.sessionId] })
    ).json()) as {
      sessions: {
        callbackRequests: { contact: unknown }[];
        satisfaction: { rating: number; comment: string } | null;
      }[];
    };
    expect(exported.sessions[0]!.callbackRequests.map((item) => item.contact)).toEqual([
      { kind: 'email', value: 'ada@example.com' },
    ]);
    expect(exported.sessions[0]!.satisfaction).toMatchObject({ rating: 4, comment: 'Quick, thanks' });

    expect(
      (
        await asOperator(app, anna, 'POST', '/api/v1/personal-data/delete', {
          sessionIds: [session.sessionId],
        })
      ).status,
    ).toBe(200);
    expect(await (await asOperator(app, anna, 'GET', '/api/v1/operator/callbacks')).json()).toEqual({
      callbacks: [],
    });
    const again = (await (
      await asOperator(app, anna, 'POST', '/api/v1/personal-data/export', { sessionIds: [session.sessionId] })
    ).json()) as { sessions: { callbackRequests: unknown[]; satisfaction: unknown }[] };
    expect(again.sessions[0]).toMatchObject({ callbackRequests: [], satisfaction: null });
    const report = (await (await asOperator(app, anna, 'GET', '/api/v1/analytics/satisfaction')).json()) as {
      count: number;
    };
    expect(report.count).toBe(0);
  });
});
