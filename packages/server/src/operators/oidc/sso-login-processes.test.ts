import { InMemoryOperatorSessions } from '@treeagent/core/adapter';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { OperatorAuth } from '../operator-auth.js';
import type { OidcOptions } from './oidc-options.js';

// Two OperatorAuth instances on one login store stand for two server processes behind a balancer
// that is not sticky (the SQLite and PostgreSQL stores keep the same fields: their conformance suite).
const oidc: OidcOptions = {
  issuer: 'https://id.example.com',
  clientId: 'console',
  clientSecret: 'not used here',
  redirectUri: 'https://help.example.com/api/v1/operator/oidc/callback',
  adminGroups: ['helpdesk-admins'],
  operatorGroups: ['helpdesk'],
};
const logger = { error: () => {} };
const anna = { id: 'anna@id.example.com', name: 'Anna', role: 'admin' as const, teams: ['billing'] };

function processes() {
  const sessions = new InMemoryOperatorSessions();
  const first = new OperatorAuth({ oidc, sessions }, logger);
  const second = new OperatorAuth({ oidc, sessions }, logger);
  const signIn = new Hono().get('/sign-in', async (c) => {
    await first.startLogin(c, anna, { idToken: 'id-token-of-anna' });
    return c.text('signed in');
  });
  const api = new Hono()
    .get('/me', second.require('admin'), (c) => c.json(c.get('operator')))
    .get('/hint', async (c) => c.json({ idToken: (await second.idTokenOf(c)) ?? null }))
    .post('/logout', async (c) => {
      await second.logout(c);
      return c.text('bye');
    });
  // As the server answers an ApiError: its status (401 without a valid login).
  api.onError((error, c) => c.text(error.message, (error as { status?: 401 }).status ?? 500));
  return { signIn, api };
}

const tokenOf = (response: Response) =>
  /treeagent_operator=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1] ?? '';

describe('a single sign-on login on several processes', () => {
  it('is recognised by a process it was not made on, with the role and teams the provider gave', async () => {
    const { signIn, api } = processes();
    const token = tokenOf(await signIn.request('/sign-in'));
    expect(token).not.toBe('');
    const headers = { 'X-Operator-Token': token };
    const me = await api.request('/me', { headers });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual(anna);
    // The provider's logout hint too, so logging out through the other process ends its session.
    expect(await (await api.request('/hint', { headers })).json()).toEqual({ idToken: 'id-token-of-anna' });
  });

  it('ends everywhere when it is logged out on one process', async () => {
    const { signIn, api } = processes();
    const headers = { 'X-Operator-Token': tokenOf(await signIn.request('/sign-in')) };
    await api.request('/logout', { method: 'POST', headers });
    expect((await api.request('/me', { headers })).status).toBe(401);
  });
});
