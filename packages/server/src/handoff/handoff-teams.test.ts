import type { NodeDefinition } from '@treeagent/core';
import { type HandoffQueue, InMemoryHandoffQueue } from '@treeagent/core/adapter';
import { beforeAll, describe, expect, it } from 'vitest';
import { type OperatorAccount, operatorDirectory } from '../operators/operator-accounts.js';
import { createSession, postMessage, testApp } from '../test-support/fixtures.js';
import {
  HANDOFF_NOTICE,
  handoffAgent,
  handoffNodes,
  queuedHandoff,
  RETURN_OPTION,
  SseReader,
} from '../test-support/handoff.js';
import { loginOperator, testOperatorsInTeams } from '../test-support/operators.js';

/**
 * Teams limit the console: an operator with teams sees and acts on the handoffs of their teams and
 * those they hold; an admin and an operator without teams every team's. Another team's session is
 * 404, as one never handed off. Bruno works in support, Carla in no team (every team), Anna is admin.
 */
type App = ReturnType<typeof testApp>['app'];
const json = { 'Content-Type': 'application/json' };
let accounts: OperatorAccount[];

beforeAll(async () => {
  accounts = await testOperatorsInTeams({ bruno: ['support'] });
});

/** The test desk, whose root hands a message naming "sales" to the sales team, any other to support. */
function desk(queue?: HandoffQueue): App {
  const [root, ...rest] = handoffNodes();
  const nodes: NodeDefinition[] = [
    {
      ...(root as Extract<NodeDefinition, { type: 'root' }>),
      beforeRun: (_self, context) =>
        /human/i.test(context.input.original)
          ? {
              handoff: {
                reason: 'asked for a person',
                queue: /sales/i.test(context.input.original) ? 'sales' : 'support',
                message: HANDOFF_NOTICE,
                returnOption: RETURN_OPTION,
              },
            }
          : undefined,
    },
    ...rest,
  ];
  return testApp({
    agent: handoffAgent({ nodes }),
    operators: { directory: operatorDirectory(accounts) },
    handoff: { streamPollMs: 200, teams: { sales: {}, support: {} }, ...(queue ? { queue } : {}) },
  }).app;
}

function call(app: App, token: string, method: string, path: string, body?: unknown) {
  return app.request(`/api/v1/operator${path}`, {
    method,
    headers: { 'X-Operator-Token': token, ...(body === undefined ? {} : json) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function handOff(app: App, message: string): Promise<string> {
  const session = await createSession(app);
  const response = await postMessage(app, session, { message });
  expect(((await response.json()) as { status: string }).status).toBe('handed-off');
  return session.sessionId;
}

async function queueOf(app: App, token: string, query = ''): Promise<string[]> {
  const response = await call(app, token, 'GET', `/handoffs${query}`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { handoffs: { sessionId: string }[] };
  return body.handoffs.map((handoff) => handoff.sessionId);
}

describe('teams limit the handoff queue', () => {
  it("shows an operator with teams only their teams' handoffs; another team's session is 404 on every route", async () => {
    const app = desk();
    const support = await handOff(app, 'I want a human');
    const sales = await handOff(app, 'I want a human for sales');
    const [anna, bruno, carla] = await Promise.all(
      (['anna', 'bruno', 'carla'] as const).map((login) => loginOperator(app, login)),
    );
    expect(await queueOf(app, bruno)).toEqual([support]);
    expect(await queueOf(app, bruno, '?queue=sales')).toEqual([]);
    expect(
      ((await (await call(app, bruno, 'GET', '/handoffs')).json()) as { queues: string[] }).queues,
    ).toEqual(['support']);
    expect(await queueOf(app, carla)).toEqual([support, sales]);
    expect(await queueOf(app, anna)).toEqual([support, sales]);

    const unknown = await call(app, bruno, 'GET', '/handoffs/never-handed-off');
    expect(unknown.status).toBe(404);
    const refusals = [
      await call(app, bruno, 'GET', `/handoffs/${sales}`),
      await call(app, bruno, 'POST', `/handoffs/${sales}/claim`, {}),
      await call(app, bruno, 'POST', `/handoffs/${sales}/notes`, { text: 'peek' }),
      await call(app, bruno, 'POST', `/handoffs/${sales}/close`, {}),
      await call(app, bruno, 'GET', `/handoffs/${sales}/files/f-1`),
    ];
    expect(refusals.map((response) => response.status)).toEqual([404, 404, 404, 404, 404]);
    // The same answer as a session that was never handed off: it does not say the session exists.
    expect(((await refusals[0]!.json()) as { error: { code: string } }).error.code).toBe(
      ((await unknown.json()) as { error: { code: string } }).error.code,
    );
    // Nothing was done: the sales handoff still waits, without a note.
    const detail = (await (await call(app, carla, 'GET', `/handoffs/${sales}`)).json()) as {
      state: { operator: unknown };
      notes: unknown[];
    };
    expect([detail.state.operator, detail.notes]).toEqual([null, []]);

    expect((await call(app, bruno, 'POST', `/handoffs/${support}/claim`, {})).status).toBe(200);
    expect((await call(app, carla, 'POST', `/handoffs/${sales}/claim`, {})).status).toBe(200);
  });

  it('a transfer to another team leaves the transferring operator; one passed to them by name stays theirs', async () => {
    const app = desk();
    const support = await handOff(app, 'I want a human');
    const sales = await handOff(app, 'I want a human for sales');
    const [anna, bruno] = await Promise.all(
      (['anna', 'bruno'] as const).map((login) => loginOperator(app, login)),
    );
    expect((await call(app, bruno, 'POST', `/handoffs/${support}/claim`, {})).status).toBe(200);
    const moved = await call(app, bruno, 'POST', `/routing/handoffs/${support}/transfer`, { team: 'sales' });
    expect(moved.status).toBe(200);
    expect(await queueOf(app, bruno)).toEqual([]);
    expect((await call(app, bruno, 'GET', `/handoffs/${support}`)).status).toBe(404);

    // An admin passes a sales conversation to Bruno by name: he holds it, sees it and answers it.
    expect((await call(app, bruno, 'PUT', '/routing/presence', { status: 'online' })).status).toBe(200);
    const passed = await call(app, anna, 'POST', `/routing/handoffs/${sales}/transfer`, {
      operatorId: 'bruno',
    });
    expect(passed.status).toBe(200);
    expect(await queueOf(app, bruno)).toEqual([sales]);
    expect(
      (await call(app, bruno, 'POST', `/handoffs/${sales}/messages`, { content: 'Hello!' })).status,
    ).toBe(201);
  });

  it('one passed to them by name is listed behind 1,000 older waiting conversations of that team', async () => {
    const queue = new InMemoryHandoffQueue();
    for (let index = 0; index < 1000; index++) await queue.put(queuedHandoff(index, { queue: 'sales' }));
    const app = desk(queue);
    const sales = await handOff(app, 'I want a human for sales');
    const [anna, bruno] = await Promise.all(
      (['anna', 'bruno'] as const).map((login) => loginOperator(app, login)),
    );
    expect((await call(app, bruno, 'PUT', '/routing/presence', { status: 'online' })).status).toBe(200);
    const passed = await call(app, anna, 'POST', `/routing/handoffs/${sales}/transfer`, {
      operatorId: 'bruno',
    });
    expect(passed.status).toBe(200);
    expect(await queueOf(app, bruno)).toEqual([sales]);
  });

  it("the live stream names to an operator with teams only their teams' sessions", async () => {
    const app = desk();
    const support = await handOff(app, 'I want a human');
    const sales = await handOff(app, 'I want a human for sales');
    const [anna, bruno, carla] = await Promise.all(
      (['anna', 'bruno', 'carla'] as const).map((login) => loginOperator(app, login)),
    );
    const streamOf = async (token: string) => {
      const response = await app.request('/api/v1/operator/events', {
        headers: { 'X-Operator-Token': token },
      });
      expect(response.status).toBe(200);
      return new SseReader(response);
    };
    const [brunoEvents, carlaEvents] = [await streamOf(bruno), await streamOf(carla)];
    // A note on each (an admin's): each publishes that its session changed.
    for (const sessionId of [sales, support])
      expect((await call(app, anna, 'POST', `/handoffs/${sessionId}/notes`, { text: 'seen' })).status).toBe(
        201,
      );
    const named = (reader: SseReader) =>
      reader.events
        .filter((event) => event.event === 'session')
        .map((event) => (event.data as { sessionId: string }).sessionId);
    await carlaEvents.waitFor(
      (event) => event.event === 'session' && (event.data as { sessionId: string }).sessionId === support,
    );
    await brunoEvents.waitFor(
      (event) => event.event === 'session' && (event.data as { sessionId: string }).sessionId === support,
    );
    // Carla (no team) hears of both; Bruno (support) of support's only, never that sales' changed.
    expect(named(carlaEvents)).toEqual([sales, support]);
    expect(named(brunoEvents)).toEqual([support]);
  });
});
