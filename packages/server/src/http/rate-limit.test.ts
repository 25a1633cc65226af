import { describe, expect, it } from 'vitest';
import { operatorDirectory } from '../operators/operator-accounts.js';
import { createSession, postMessage, testApp } from '../test-support/fixtures.js';
import { loginOperator, testOperatorAccounts } from '../test-support/operators.js';

describe('the limit on failed authentication', () => {
  it("does not count an operator's refusals on admin routes: the operator, the admin and chat users behind the same address go on", async () => {
    const operators = { directory: operatorDirectory(await testOperatorAccounts()) };
    const { app } = testApp({ operators, authFailureLimit: { windowMs: 60_000, max: 3 } });
    const bruno = { 'X-Operator-Token': await loginOperator(app, 'bruno') };
    // The Analytics page asks an admin-only route for every operator and expects the 403.
    for (let i = 0; i < 10; i++)
      expect((await app.request('/api/v1/operator/webhook', { headers: bruno })).status).toBe(403);
    expect((await app.request('/api/v1/operator/me', { headers: bruno })).status).toBe(200);
    const anna = { 'X-Operator-Token': await loginOperator(app, 'anna') };
    expect((await app.request('/api/v1/operator/me', { headers: anna })).status).toBe(200);
    const session = await createSession(app);
    expect((await postMessage(app, session, { message: 'hello' })).status).toBe(200);
  });

  it('still counts missing or wrong logins (401) and wrong session tokens (403)', async () => {
    const operators = { directory: operatorDirectory(await testOperatorAccounts()) };
    const { app } = testApp({ operators, authFailureLimit: { windowMs: 60_000, max: 3 } });
    const session = await createSession(app);
    const wrong = { 'X-Operator-Token': 'guessed-token' };
    expect((await app.request('/api/v1/operator/me', { headers: wrong })).status).toBe(401);
    expect((await app.request('/api/v1/operator/me')).status).toBe(401);
    expect((await postMessage(app, { ...session, token: 'guessed' }, { message: 'hi' })).status).toBe(403);
    expect((await postMessage(app, session, { message: 'hello' })).status).toBe(429);
  });
});
