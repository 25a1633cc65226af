import { InMemoryAuditLog } from '@treeagent/core/adapter';
import { beforeAll, describe, expect, it } from 'vitest';
import { type OperatorAccount, operatorDirectory } from '../../operators/operator-accounts.js';
import { testApp } from '../../test-support/fixtures.js';
import { handoffAgent } from '../../test-support/handoff.js';
import { loginOperator, testOperatorAccounts } from '../../test-support/operators.js';

type App = ReturnType<typeof testApp>['app'];
let accounts: OperatorAccount[];

beforeAll(async () => {
  // Bruno works in support; Carla in sales; Anna is the admin.
  const teams: Record<string, string[]> = { bruno: ['support'], carla: ['sales'] };
  accounts = (await testOperatorAccounts()).map((account) =>
    teams[account.id] ? { ...account, teams: teams[account.id] } : account,
  );
});

function desk() {
  const auditLog = new InMemoryAuditLog();
  const { app } = testApp({
    agent: handoffAgent(),
    operators: { directory: operatorDirectory(accounts), auditLog },
  });
  return { app, auditLog };
}

function call(app: App, token: string, method: string, path: string, body?: unknown) {
  return app.request(`/api/v1/operator/canned${path}`, {
    method,
    headers: {
      'X-Operator-Token': token,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function shortcuts(app: App, token: string): Promise<string[]> {
  const response = await call(app, token, 'GET', '');
  expect(response.status).toBe(200);
  const body = (await response.json()) as { responses: { shortcut: string; team: string | null }[] };
  return body.responses.map((item) => `${item.shortcut}@${item.team ?? '*'}`);
}

describe('canned responses over HTTP', () => {
  it('an admin creates, edits and deletes them (audited); operators read their teams’ and get 403 on changes', async () => {
    const { app, auditLog } = desk();
    const anna = await loginOperator(app, 'anna');
    const bruno = await loginOperator(app, 'bruno');
    const carla = await loginOperator(app, 'carla');

    const created = await call(app, anna, 'POST', '', {
      shortcut: 'refund',
      team: 'support',
      text: 'Hello {{name}}, your refund for order {{state.order}} is on its way.',
    });
    expect(created.status).toBe(201);
    const { response } = (await created.json()) as { response: { id: string } };
    expect((await call(app, anna, 'POST', '', { shortcut: 'hello', team: null, text: 'Hi!' })).status).toBe(
      201,
    );
    expect(
      (await call(app, anna, 'POST', '', { shortcut: 'price', team: 'sales', text: 'Prices' })).status,
    ).toBe(201);

    expect(await shortcuts(app, anna)).toEqual(['hello@*', 'price@sales', 'refund@support']);
    expect(await shortcuts(app, bruno)).toEqual(['hello@*', 'refund@support']);
    expect(await shortcuts(app, carla)).toEqual(['hello@*', 'price@sales']);

    // Operators may not change them.
    expect((await call(app, bruno, 'POST', '', { shortcut: 'x', team: null, text: 'x' })).status).toBe(403);
    expect(
      (await call(app, bruno, 'PUT', `/${response.id}`, { shortcut: 'x', team: null, text: 'x' })).status,
    ).toBe(403);
    expect((await call(app, bruno, 'DELETE', `/${response.id}`)).status).toBe(403);
    // Without a login, nothing at all.
    expect((await app.request('/api/v1/operator/canned')).status).toBe(401);

    const edited = await call(app, anna, 'PUT', `/${response.id}`, {
      shortcut: 'refund',
      team: null,
      text: 'Refund on its way, {{name}}.',
    });
    expect(edited.status).toBe(200);
    expect(await shortcuts(app, carla)).toEqual(['hello@*', 'price@sales', 'refund@*']);
    expect((await call(app, anna, 'DELETE', `/${response.id}`)).status).toBe(204);
    expect((await call(app, anna, 'DELETE', `/${response.id}`)).status).toBe(404);
    expect(await shortcuts(app, anna)).toEqual(['hello@*', 'price@sales']);

    const actions = (await auditLog.list({ limit: 100 })).map((entry) => entry.action);
    expect(actions.filter((action) => action.startsWith('canned.'))).toEqual(
      expect.arrayContaining(['canned.create', 'canned.update', 'canned.delete']),
    );
  });

  it('bad input and a taken shortcut are refused with what to fix, and nothing changes', async () => {
    const { app } = desk();
    const anna = await loginOperator(app, 'anna');
    expect(
      (await call(app, anna, 'POST', '', { shortcut: 'refund', team: 'support', text: 'one' })).status,
    ).toBe(201);
    const taken = await call(app, anna, 'POST', '', { shortcut: 'refund', team: 'support', text: 'two' });
    expect(taken.status).toBe(409);
    expect(JSON.stringify(await taken.json())).toContain('already used in team');
    const slash = await call(app, anna, 'POST', '', { shortcut: '/refund', team: null, text: 'x' });
    expect(slash.status).toBe(400);
    expect(JSON.stringify(await slash.json())).toContain('without the');
    const empty = await call(app, anna, 'POST', '', { shortcut: 'empty', team: null, text: '  ' });
    expect(empty.status).toBe(400);
    const listed = (await (await call(app, anna, 'GET', '')).json()) as { responses: { text: string }[] };
    expect(listed.responses.map((item) => item.text)).toEqual(['one']);
  });
});
