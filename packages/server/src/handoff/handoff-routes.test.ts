import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type HandoffQueue, InMemoryAuditLog, InMemoryHandoffQueue } from '@treeagent/core/adapter';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_QUEUED_NOTICE } from '../openai/handoff-reply.js';
import { type OperatorAccount, operatorDirectory } from '../operators/operator-accounts.js';
import { USER_TYPING_PER_MINUTE } from '../sessions/session-event-routes.js';
import { createSession, postMessage, testApp } from '../test-support/fixtures.js';
import {
  HANDOFF_NOTICE,
  handoffAgent,
  queuedHandoff,
  RETURN_OPTION,
  SseReader,
} from '../test-support/handoff.js';
import { loginOperator, testOperatorAccounts } from '../test-support/operators.js';
import { signWebhook } from './handoff-webhook.js';

let accounts: OperatorAccount[];
beforeAll(async () => {
  accounts = await testOperatorAccounts();
});

type App = ReturnType<typeof testApp>['app'];
const json = { 'Content-Type': 'application/json' };

function deskApp(options: Parameters<typeof testApp>[0] = {}) {
  const auditLog = new InMemoryAuditLog();
  const made = testApp({
    agent: handoffAgent(),
    operators: { directory: operatorDirectory(accounts), auditLog },
    handoff: { streamPollMs: 200 },
    ...options,
  });
  return { ...made, auditLog };
}

async function say(app: App, session: { sessionId: string; token: string }, message: string) {
  const response = await postMessage(app, session, { message });
  expect(response.status).toBe(200);
  return (await response.json()) as {
    status: string;
    messages: { content: string; options: string[] }[];
    handoff?: unknown;
  };
}

function operatorCall(app: App, token: string, path: string, body?: unknown) {
  return app.request(`/api/v1/operator${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'X-Operator-Token': token, ...(body === undefined ? {} : json) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

function events(app: App, session: { sessionId: string; token: string }, lastEventId?: number) {
  return app.request(`/api/v1/sessions/${session.sessionId}/events`, {
    headers: {
      'X-Session-Token': session.token,
      ...(lastEventId === undefined ? {} : { 'Last-Event-ID': String(lastEventId) }),
    },
  });
}

describe('handoff over HTTP', () => {
  it('user asks for a human; an operator claims, types and replies live; notes; hands back at a node; all audited', async () => {
    const { app, auditLog } = deskApp();
    const session = await createSession(app);
    expect((await say(app, session, 'hello')).status).toBe('answered');
    const handedOff = await say(app, session, 'I want a human');
    expect(handedOff.status).toBe('handed-off');
    expect(handedOff.messages.map((message) => [message.content, message.options])).toEqual([
      [HANDOFF_NOTICE, [RETURN_OPTION]],
    ]);

    const stream = new SseReader(await events(app, session));
    await stream.waitFor(
      (event) => event.event === 'handoff' && (event.data as any).handoff?.status === 'waiting',
    );

    const bruno = await loginOperator(app, 'bruno');
    const carla = await loginOperator(app, 'carla');
    expect((await say(app, session, 'are you there?')).status).toBe('handed-off');
    await expect
      .poll(async () => ((await (await operatorCall(app, bruno, '/handoffs')).json()) as any).handoffs)
      .toEqual([
        expect.objectContaining({
          sessionId: session.sessionId,
          status: 'waiting',
          queue: 'support',
          reason: 'asked for a person',
          summary: 'Wants to talk about an order.',
          lastMessages: ['hello', 'I want a human', 'are you there?'],
          operator: null,
        }),
      ]);
    // The user's message while waiting reached the stream too.
    await stream.waitFor(
      (event) => event.event === 'entry' && (event.data as any).entry.content === 'are you there?',
    );

    expect((await operatorCall(app, bruno, `/handoffs/${session.sessionId}/claim`, {})).status).toBe(200);
    await stream.waitFor(
      (event) => event.event === 'handoff' && (event.data as any).handoff?.operatorName === 'Bruno Bianchi',
    );
    const refused = await operatorCall(app, carla, `/handoffs/${session.sessionId}/claim`, {});
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as any).error.code).toBe('HANDOFF');
    expect(
      (await operatorCall(app, carla, `/handoffs/${session.sessionId}/claim`, { takeOver: true })).status,
    ).toBe(403);
    expect(
      (await operatorCall(app, carla, `/handoffs/${session.sessionId}/messages`, { content: 'me too' }))
        .status,
    ).toBe(409);

    expect(
      (await operatorCall(app, bruno, `/handoffs/${session.sessionId}/typing`, { typing: true })).status,
    ).toBe(204);
    await stream.waitFor((event) => event.event === 'typing' && (event.data as any).typing === true);
    const reply = await operatorCall(app, bruno, `/handoffs/${session.sessionId}/messages`, {
      content: 'Ciao, sono Bruno: which order?',
      options: ['#1001', '#1002'],
    });
    expect(reply.status).toBe(201);
    const live = await stream.waitFor(
      (event) =>
        event.event === 'entry' && (event.data as any).entry.content === 'Ciao, sono Bruno: which order?',
    );
    // Users see the operator's name, never the login.
    expect(live.data.entry.operator).toEqual({ id: '', name: 'Bruno Bianchi' });
    expect(live.data.entry.options).toEqual(['#1001', '#1002']);

    expect(
      (await operatorCall(app, carla, `/handoffs/${session.sessionId}/notes`, { text: 'VIP customer' }))
        .status,
    ).toBe(201);
    const detail = (await (await operatorCall(app, bruno, `/handoffs/${session.sessionId}`)).json()) as any;
    expect(
      detail.notes.map((note: { text: string; operator: { id: string } }) => [note.operator.id, note.text]),
    ).toEqual([['carla', 'VIP customer']]);
    expect(detail.state.operator.id).toBe('bruno');
    expect(detail.session.turn).toBe(3);
    // Notes never reach the user.
    expect(JSON.stringify(stream.events)).not.toContain('VIP customer');

    const badTarget = await operatorCall(app, bruno, `/handoffs/${session.sessionId}/hand-back`, {
      nodeTarget: 999,
    });
    expect(badTarget.status).toBe(400);
    expect(((await badTarget.json()) as any).error.message).toContain('Node 999 is not in the tree');
    expect(
      (
        await operatorCall(app, bruno, `/handoffs/${session.sessionId}/hand-back`, {
          nodeTarget: 3,
          step: 'before',
        })
      ).status,
    ).toBe(200);
    await stream.waitFor((event) => event.event === 'handoff' && (event.data as any).handoff === null);
    const next = await say(app, session, 'xyz');
    expect(next.status).toBe('answered');
    expect(next.messages[0]!.content).toBe('Hi! How can I help?');
    await stream.close();

    await expect
      .poll(async () => ((await (await operatorCall(app, bruno, '/handoffs')).json()) as any).handoffs)
      .toEqual([]);
    const closed = (await (await operatorCall(app, bruno, '/handoffs?status=closed')).json()) as any;
    expect(closed.handoffs[0]).toMatchObject({ status: 'closed', outcome: 'handed-back', noteCount: 1 });
    const actions = (await auditLog.list({ sessionId: session.sessionId })).map(
      (entry) => `${entry.actorId} ${entry.action}`,
    );
    expect(actions.reverse()).toEqual([
      'bruno handoff.claim',
      'bruno handoff.reply',
      'carla handoff.note',
      'bruno handoff.hand-back',
    ]);
    // The audit keeps counts, not the texts.
    expect(JSON.stringify(await auditLog.list())).not.toContain('which order');
  });

  it('the event stream resumes after Last-Event-ID, in order, without duplicates', async () => {
    const { app } = deskApp();
    const session = await createSession(app);
    await say(app, session, 'hello');
    await say(app, session, 'human please');
    const bruno = await loginOperator(app, 'bruno');
    await operatorCall(app, bruno, `/handoffs/${session.sessionId}/claim`, {});
    await operatorCall(app, bruno, `/handoffs/${session.sessionId}/messages`, { content: 'first' });
    await operatorCall(app, bruno, `/handoffs/${session.sessionId}/messages`, { content: 'second' });
    const history = (
      (await (
        await app.request(`/api/v1/sessions/${session.sessionId}/history`, {
          headers: { 'X-Session-Token': session.token },
        })
      ).json()) as any
    ).history;
    const stream = new SseReader(await events(app, session, 5));
    await stream.waitFor(
      (event) => event.event === 'entry' && (event.data as any).entry.content === 'second',
    );
    await operatorCall(app, bruno, `/handoffs/${session.sessionId}/messages`, { content: 'third' });
    await stream.waitFor((event) => event.event === 'entry' && (event.data as any).entry.content === 'third');
    await stream.close();
    const entries = stream.events.filter((event) => event.event === 'entry');
    expect(entries.map((event) => Number(event.id))).toEqual([6, 7, 8, 9].slice(0, entries.length));
    expect(entries.map((event) => (event.data as any).entry.content)).toEqual([
      ...history.slice(5).map((entry: { content: string }) => entry.content),
      'third',
    ]);
  });

  it("the chat page's start (?after= the rows it shows) replays the rows written before the stream opened", async () => {
    const { app } = deskApp();
    const session = await createSession(app);
    await say(app, session, 'human please');
    // What the page shows once the turn has answered: the user's row and the handoff notice…
    const shown = 2;
    // …then an operator writes twice before the page's stream has opened.
    const bruno = await loginOperator(app, 'bruno');
    await operatorCall(app, bruno, `/handoffs/${session.sessionId}/claim`, {});
    await operatorCall(app, bruno, `/handoffs/${session.sessionId}/messages`, { content: 'first' });
    await operatorCall(app, bruno, `/handoffs/${session.sessionId}/messages`, { content: 'second' });
    const stream = new SseReader(
      await app.request(`/api/v1/sessions/${session.sessionId}/events?after=${shown}`, {
        headers: { 'X-Session-Token': session.token },
      }),
    );
    await stream.waitFor(
      (event) => event.event === 'entry' && (event.data as any).entry.content === 'second',
    );
    await stream.close();
    const entries = stream.events.filter((event) => event.event === 'entry');
    expect(entries[0]?.id).toBe(String(shown + 1));
    expect(entries.map((event) => (event.data as any).entry.content).slice(-2)).toEqual(['first', 'second']);
    expect(new Set(entries.map((event) => event.id)).size).toBe(entries.length);
  });

  it('security: user tokens cannot read the queue; other sessions and operator logins cannot open a stream', async () => {
    const { app } = deskApp();
    const mine = await createSession(app);
    const other = await createSession(app);
    await say(app, mine, 'human');
    expect((await operatorCall(app, mine.token, '/handoffs')).status).toBe(401);
    expect(
      (await app.request('/api/v1/operator/handoffs', { headers: { 'X-Session-Token': mine.token } })).status,
    ).toBe(401);
    expect((await operatorCall(app, mine.token, `/handoffs/${mine.sessionId}/claim`, {})).status).toBe(401);
    expect(
      (
        await app.request(`/api/v1/sessions/${mine.sessionId}/events`, {
          headers: { 'X-Session-Token': other.token },
        })
      ).status,
    ).toBe(403);
    const bruno = await loginOperator(app, 'bruno');
    expect(
      (
        await app.request(`/api/v1/sessions/${mine.sessionId}/events`, {
          headers: { 'X-Operator-Token': bruno, 'X-Session-Token': bruno },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await app.request(`/api/v1/operator/handoffs/${other.sessionId}`, {
          headers: { 'X-Operator-Token': bruno },
        })
      ).status,
    ).toBe(404);
  });

  it('the user typing reaches the operators’ stream; a session token signals only its own session; rate-limited', async () => {
    const { app } = deskApp();
    const mine = await createSession(app);
    const other = await createSession(app);
    const typing = (session: { sessionId: string }, token: string | undefined, value: unknown) =>
      app.request(`/api/v1/sessions/${session.sessionId}/typing`, {
        method: 'POST',
        headers: { ...json, ...(token ? { 'X-Session-Token': token } : {}) },
        body: JSON.stringify({ typing: value }),
      });
    // While the agent has the session nothing is passed on.
    let response = await typing(mine, mine.token, true);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ delivered: false });

    await say(app, mine, 'human');
    const bruno = await loginOperator(app, 'bruno');
    const desk = new SseReader(
      await app.request('/api/v1/operator/events', { headers: { 'X-Operator-Token': bruno } }),
    );
    await desk.waitFor((event) => event.event === 'queue');
    response = await typing(mine, mine.token, true);
    expect(await response.json()).toEqual({ delivered: true });
    const seen = await desk.waitFor((event) => event.event === 'typing');
    expect(seen.data).toEqual({ sessionId: mine.sessionId, typing: true });

    // Another session's token, no token, an operator login, a bad body: refused, nothing passed on.
    expect((await typing(mine, other.token, true)).status).toBe(403);
    expect((await typing(mine, undefined, true)).status).toBe(401);
    expect((await typing(mine, bruno, true)).status).toBe(403);
    expect((await typing(mine, mine.token, 'yes')).status).toBe(400);
    expect(
      (
        await app.request(`/api/v1/sessions/${mine.sessionId}/typing`, {
          method: 'POST',
          headers: { ...json, 'X-Operator-Token': bruno },
          body: JSON.stringify({ typing: true }),
        })
      ).status,
    ).toBe(401);
    await typing(mine, mine.token, false);
    await desk.waitFor((event) => event.event === 'typing' && (event.data as any).typing === false);
    expect(desk.events.filter((event) => event.event === 'typing')).toHaveLength(2);

    // At most USER_TYPING_PER_MINUTE a minute per session; other sessions are not affected.
    let limited: Response | null = null;
    for (let index = 0; index < USER_TYPING_PER_MINUTE && !limited; index++) {
      const next = await typing(mine, mine.token, index % 2 === 0);
      if (next.status === 429) limited = next;
    }
    expect(limited?.status).toBe(429);
    expect(limited?.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect((await typing(other, other.token, true)).status).toBe(202);
  });

  it('"… is typing" only from the operator who holds the session: not before a handoff, not while it waits, not from another operator or an admin', async () => {
    const { app } = deskApp();
    const session = await createSession(app);
    const stream = new SseReader(await events(app, session));
    const bruno = await loginOperator(app, 'bruno');
    const carla = await loginOperator(app, 'carla');
    const anna = await loginOperator(app, 'anna');
    const typing = (token: string) =>
      operatorCall(app, token, `/handoffs/${session.sessionId}/typing`, { typing: true });

    // Not handed off: no such handed-off session.
    const before = await typing(bruno);
    expect(before.status).toBe(404);
    expect(((await before.json()) as any).error.message).toMatch(/not with people/);
    // Waiting in the queue: nobody holds it yet.
    await say(app, session, 'human');
    await stream.waitFor((event) => event.event === 'handoff' && (event.data as any).handoff !== null);
    const waiting = await typing(bruno);
    expect(waiting.status).toBe(409);
    expect(((await waiting.json()) as any).error).toMatchObject({
      code: 'HANDOFF',
      message: expect.stringMatching(/Claim the session/),
    });
    // Held by Bruno: Carla and the admin Anna are refused, Bruno is shown.
    expect((await operatorCall(app, bruno, `/handoffs/${session.sessionId}/claim`, {})).status).toBe(200);
    expect((await typing(carla)).status).toBe(409);
    expect((await typing(anna)).status).toBe(409);
    expect((await typing(bruno)).status).toBe(204);
    await stream.waitFor((event) => event.event === 'typing');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stream.events.filter((event) => event.event === 'typing').map((event) => event.data)).toEqual([
      { operatorName: 'Bruno Bianchi', typing: true },
    ]);
    await stream.close();
  });

  it("what a user reads shows operators by display name, never their login, nor why the handoff was made: history, stream, the turn's output", async () => {
    const { app } = deskApp();
    const session = await createSession(app);
    const stream = new SseReader(await events(app, session, 0));
    const handedOff = await say(app, session, 'human');
    // The reason and the summary are for the operators.
    expect((handedOff.handoff as any).reason).toBe('');
    expect((handedOff.handoff as any).summary).toBeNull();
    expect(JSON.stringify(handedOff)).not.toContain('asked for a person');
    expect(JSON.stringify(handedOff)).not.toContain('Wants to talk about an order.');
    const bruno = await loginOperator(app, 'bruno');
    const anna = await loginOperator(app, 'anna');
    expect((await operatorCall(app, bruno, `/handoffs/${session.sessionId}/claim`, {})).status).toBe(200);
    expect(
      (
        await operatorCall(app, bruno, `/handoffs/${session.sessionId}/messages`, {
          content: 'Hi, Bruno here.',
        })
      ).status,
    ).toBe(201);
    // The admin takes over and closes: the transitions name both operators.
    expect(
      (await operatorCall(app, anna, `/handoffs/${session.sessionId}/claim`, { takeOver: true })).status,
    ).toBe(200);
    const held = await say(app, session, 'still there?');
    expect(JSON.stringify(held)).not.toMatch(/"(bruno|anna)"/);
    expect((held.handoff as any).operator).toEqual({ id: '', name: 'Anna Rossi' });
    expect((await operatorCall(app, anna, `/handoffs/${session.sessionId}/close`, {})).status).toBe(200);

    const response = await app.request(`/api/v1/sessions/${session.sessionId}/history`, {
      headers: { 'X-Session-Token': session.token },
    });
    expect(response.status).toBe(200);
    const { history } = (await response.json()) as { history: any[] };
    const reply = history.find((entry) => entry.content === 'Hi, Bruno here.');
    expect(reply.operator).toEqual({ id: '', name: 'Bruno Bianchi' });
    const transitions = history.filter((entry) => entry.handoff).map((entry) => entry.handoff);
    expect(transitions.map((transition) => transition.type)).toEqual(['start', 'claim', 'claim', 'end']);
    expect(transitions[0].reason).toBe('');
    expect(transitions.slice(1).map((transition) => transition.operator)).toEqual([
      { id: '', name: 'Bruno Bianchi' },
      { id: '', name: 'Anna Rossi' },
      { id: '', name: 'Anna Rossi' },
    ]);
    // One rule for the history and the event stream: the same rows, the same view.
    await stream.waitFor((event) => event.event === 'entry' && (event.data as any).index === history.length);
    expect(
      stream.events.filter((event) => event.event === 'entry').map((event) => (event.data as any).entry),
    ).toEqual(history);
    expect(JSON.stringify(history)).not.toMatch(/"(bruno|anna)"/);
    expect(JSON.stringify(history)).not.toContain('asked for a person');
    // Operators still see who did what, and why.
    const detail = (await (await operatorCall(app, anna, `/handoffs/${session.sessionId}`)).json()) as any;
    expect(detail.history.find((entry: any) => entry.handoff?.type === 'start').handoff.reason).toBe(
      'asked for a person',
    );
    expect(detail.history.find((entry: any) => entry.content === 'Hi, Bruno here.').operator.id).toBe(
      'bruno',
    );
    await stream.close();
  });

  it('the return option gives the session back to the agent; the queue closes it', async () => {
    const { app } = deskApp();
    const session = await createSession(app);
    await say(app, session, 'human');
    const bruno = await loginOperator(app, 'bruno');
    const back = await postMessage(app, session, { message: RETURN_OPTION, selectedOption: RETURN_OPTION });
    const output = (await back.json()) as { status: string; messages: { content: string }[] };
    expect(output.status).toBe('answered');
    expect(output.messages[0]!.content).toBe('Hi! How can I help?');
    await expect
      .poll(
        async () =>
          ((await (await operatorCall(app, bruno, '/handoffs?status=closed')).json()) as any).handoffs[0]
            ?.outcome,
      )
      .toBe('user-returned');
  });

  it('the OpenAI endpoint answers the queued notice, then the operators’ replies', async () => {
    const { app } = deskApp();
    const chat = async (content: string, user?: string) => {
      const response = await app.request('/v1/chat/completions', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          model: 'test-desk',
          messages: [{ role: 'user', content }],
          ...(user ? { user } : {}),
        }),
      });
      return { id: response.headers.get('X-Session-Id')!, body: (await response.json()) as any };
    };
    const first = await chat('a human please');
    expect(first.body.choices[0].message.content).toBe(HANDOFF_NOTICE);
    expect(first.body.treeagent.status).toBe('handed-off');
    const waiting = await chat('hello?', first.id);
    expect(waiting.body.choices[0].message.content).toBe(HANDOFF_NOTICE);
    const bruno = await loginOperator(app, 'bruno');
    const [entry] = ((await (await operatorCall(app, bruno, '/handoffs')).json()) as any).handoffs;
    await operatorCall(app, bruno, `/handoffs/${encodeURIComponent(entry.sessionId)}/claim`, {});
    await operatorCall(app, bruno, `/handoffs/${encodeURIComponent(entry.sessionId)}/messages`, {
      content: 'Bruno here.',
    });
    expect((await chat('thanks', first.id)).body.choices[0].message.content).toBe('Bruno here.');
    expect(DEFAULT_QUEUED_NOTICE).toMatch(/operator/);
  });

  it('a signed webhook with an idempotency key on start and end, retried after a failure; queue metrics', async () => {
    const received: { headers: IncomingMessage['headers']; body: string }[] = [];
    let failures = 1;
    const receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        if (failures-- > 0) response.writeHead(503).end();
        else response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const secret = 'a-shared-webhook-secret';
      const { app } = deskApp({ handoff: { webhook: { url, secret, retryDelayMs: 20 }, streamPollMs: 200 } });
      const session = await createSession(app);
      await say(app, session, 'human');
      await expect.poll(() => received.length).toBe(2);
      const [failed, delivered] = received;
      expect(delivered!.headers['idempotency-key']).toBe(failed!.headers['idempotency-key']);
      const event = JSON.parse(delivered!.body);
      expect(event).toMatchObject({
        type: 'handoff.started',
        sessionId: session.sessionId,
        queue: 'support',
        reason: 'asked for a person',
      });
      const signature = String(delivered!.headers['x-treeagent-signature']);
      const timestamp = Number(/t=(\d+)/.exec(signature)![1]);
      expect(signature).toBe(signWebhook(secret, timestamp, delivered!.body));

      const metrics = await (await app.request('/metrics')).text();
      expect(metrics).toContain('treeagent_handoff_queue_length{queue="support",status="waiting"} 1');
      expect(metrics).toContain('treeagent_handoffs_started_total{queue="support"} 1');
      expect(metrics).toMatch(/treeagent_handoff_oldest_wait_seconds\{queue="support"\} \d/);

      const anna = await loginOperator(app, 'anna');
      await operatorCall(app, anna, `/handoffs/${session.sessionId}/close`, {});
      await expect.poll(() => received.length).toBe(3);
      expect(JSON.parse(received[2]!.body)).toMatchObject({
        type: 'handoff.ended',
        outcome: 'closed',
        operator: { id: 'anna' },
      });
      expect(received[2]!.headers['idempotency-key']).not.toBe(delivered!.headers['idempotency-key']);
      expect(await (await app.request('/metrics')).text()).toContain(
        'treeagent_handoffs_ended_total{queue="support",outcome="closed"} 1',
      );
    } finally {
      receiver.close();
    }
  });
});

describe('the queue gauges count every open handoff', () => {
  it('reports 1,200 waiting sessions, past the 1,000 a list returns', async () => {
    const queue = new InMemoryHandoffQueue();
    for (let index = 0; index < 1200; index++) await queue.put(queuedHandoff(index));
    const { app } = deskApp({ handoff: { queue, streamPollMs: 200 } });
    const metrics = await (await app.request('/metrics')).text();
    expect(metrics).toContain('treeagent_handoff_queue_length{queue="support",status="waiting"} 1200');
  });

  it('counts a store without tallyOpen from the oldest 1,000 it lists, the oldest wait exact', async () => {
    const full = new InMemoryHandoffQueue();
    for (let index = 0; index < 1200; index++) await full.put(queuedHandoff(index));
    const { tallyOpen: _left, ...rest } = Object.fromEntries(
      (['put', 'get', 'list', 'addNote', 'delete', 'tallyOpen'] as const).map((name) => [
        name,
        full[name].bind(full),
      ]),
    ) as Required<HandoffQueue>;
    const { app } = deskApp({ handoff: { queue: rest, streamPollMs: 200 } });
    const metrics = await (await app.request('/metrics')).text();
    expect(metrics).toContain('treeagent_handoff_queue_length{queue="support",status="waiting"} 1000');
    const oldest = Number(
      /treeagent_handoff_oldest_wait_seconds\{queue="support"\} ([\d.]+)/.exec(metrics)![1],
    );
    expect(oldest * 1000).toBeGreaterThanOrEqual(Date.now() - Date.UTC(2026, 11, 1, 8) - 5000);
  });
});
