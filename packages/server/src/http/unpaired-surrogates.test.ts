import { beforeAll, describe, expect, it } from 'vitest';
import { type OperatorAccount, operatorDirectory } from '../operators/operator-accounts.js';
import { createSession, postMessage, testApp } from '../test-support/fixtures.js';
import { handoffAgent } from '../test-support/handoff.js';
import { loginOperator, testOperatorAccounts } from '../test-support/operators.js';
import { bodyProblem } from './body-problems.js';

const unpairedSurrogatePath = (value: unknown) => bodyProblem(value)?.path ?? null;

// JSON.stringify writes a lone surrogate as the escape "\ud800": what a client sent in the review.
const LONE_HIGH = 'order \ud800 please';
const LONE_LOW = 'order \udc00 please';
const json = { 'Content-Type': 'application/json' };

let accounts: OperatorAccount[];
beforeAll(async () => {
  accounts = await testOperatorAccounts();
});

describe('unpaired UTF-16 surrogates are refused at the edge (400 naming where)', () => {
  it('finds them in strings and keys, and lets pairs (emoji) through', () => {
    expect(unpairedSurrogatePath({ message: LONE_HIGH })).toBe('message');
    expect(unpairedSurrogatePath({ a: [{ b: LONE_LOW }] })).toBe('a.0.b');
    expect(unpairedSurrogatePath({ [LONE_HIGH]: 1 })).toBe(LONE_HIGH);
    expect(unpairedSurrogatePath({ message: 'a bike 🚲 \ud83d\udeb2' })).toBeNull();
    expect(unpairedSurrogatePath('\udbff')).toBe('(body)');
  });

  it('the JSON API refuses such a message and stores nothing; an emoji passes', async () => {
    const { app, agent } = testApp();
    const session = await createSession(app);
    for (const message of [LONE_HIGH, LONE_LOW]) {
      const response = await postMessage(app, session, { message });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string; details: any } };
      expect(body.error.code).toBe('INVALID_REQUEST');
      expect(body.error.message).toMatch(/message: .*unpaired UTF-16 surrogate.*well-formed Unicode/);
      expect(body.error.details.issues[0].path).toBe('message');
    }
    expect(await agent.history(session.sessionId)).toEqual([]);
    expect((await postMessage(app, session, { message: 'hello 🚲' })).status).toBe(200);
  });

  it('the OpenAI endpoint refuses it (in a string or in a content part)', async () => {
    const { app, agent } = testApp();
    for (const content of [LONE_HIGH, [{ type: 'text', text: LONE_LOW }]]) {
      const response = await app.request('/v1/chat/completions', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ model: agent.tree.name, messages: [{ role: 'user', content }] }),
      });
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toMatch(/unpaired UTF-16 surrogate/);
    }
  });

  it("an operator's reply and note are refused too", async () => {
    const { app } = testApp({
      agent: handoffAgent(),
      operators: { directory: operatorDirectory(accounts) },
    });
    const session = await createSession(app);
    expect((await postMessage(app, session, { message: 'I want a human' })).status).toBe(200);
    const token = await loginOperator(app, 'bruno');
    const call = (path: string, body: unknown) =>
      app.request(`/api/v1/operator/handoffs/${session.sessionId}${path}`, {
        method: 'POST',
        headers: { ...json, 'X-Operator-Token': token },
        body: JSON.stringify(body),
      });
    expect((await call('/claim', {})).status).toBe(200);
    const reply = await call('/messages', { content: LONE_HIGH });
    expect(reply.status).toBe(400);
    expect(((await reply.json()) as any).error.details.issues[0].path).toBe('content');
    const note = await call('/notes', { text: LONE_LOW });
    expect(note.status).toBe(400);
    expect(((await note.json()) as any).error.details.issues[0].path).toBe('text');
    expect((await call('/messages', { content: 'Hello, how can I help?' })).status).toBe(201);
  });
});
