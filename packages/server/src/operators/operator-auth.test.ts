import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryAuditLog } from '@treeagent/core/adapter';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSession, testApp } from '../test-support/fixtures.js';
import { loginOperator, OPERATOR_PASSWORDS, testOperatorAccounts } from '../test-support/operators.js';
import {
  loadOperatorsFile,
  type OperatorAccount,
  type OperatorDirectory,
  operatorDirectory,
} from './operator-accounts.js';
import { hashOperatorPassword, verifyOperatorPassword } from './operator-password.js';

let accounts: OperatorAccount[];
beforeAll(async () => {
  accounts = await testOperatorAccounts();
});

function operatorApp(options: Parameters<typeof testApp>[0] = {}) {
  const auditLog = new InMemoryAuditLog();
  const { app, logger } = testApp({
    operators: { directory: operatorDirectory(accounts), auditLog },
    ...options,
  });
  return { app, auditLog, logger };
}

const json = { 'Content-Type': 'application/json' };

/** The JSON body of a response, with the fields these tests read. */
type Body = {
  operator: { id: string; name: string; role: string };
  error: { code: string; message: string };
  entries: { actorId: string; action: string }[];
  nextBeforeId: number | null;
};
const read = async (response: Response) => (await response.json()) as Body;

describe('operator passwords', () => {
  it('hashes with scrypt and a random salt; only the right password verifies', async () => {
    const first = await hashOperatorPassword('a long enough password');
    const second = await hashOperatorPassword('a long enough password');
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(first).not.toBe(second);
    expect(await verifyOperatorPassword('a long enough password', first)).toBe(true);
    expect(await verifyOperatorPassword('a long enough passwore', first)).toBe(false);
    expect(await verifyOperatorPassword('a long enough password', 'plain-text')).toBe(false);
  });

  it('refuses passwords shorter than 12 characters', async () => {
    await expect(hashOperatorPassword('short')).rejects.toThrow(/at least 12 characters/);
  });
});

describe('operators file', () => {
  const directories: string[] = [];
  afterEach(() => {
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });
  function file(content: string): string {
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-operators-file-'));
    directories.push(directory);
    const path = join(directory, 'operators.json');
    writeFileSync(path, content);
    return path;
  }

  it('loads valid accounts', () => {
    const path = file(JSON.stringify({ operators: accounts }));
    expect(loadOperatorsFile(path).map((account) => account.id)).toEqual(['anna', 'bruno', 'carla']);
  });

  it('names the file and every problem, with the fix', () => {
    const path = file(
      JSON.stringify({
        operators: [
          { id: 'has space', name: 'X', role: 'operator', passwordHash: accounts[0]!.passwordHash },
          { id: 'ok', name: 'Y', role: 'boss', passwordHash: 'password123' },
        ],
      }),
    );
    expect(() => loadOperatorsFile(path)).toThrow(path);
    const message = (() => {
      try {
        loadOperatorsFile(path);
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toContain('operators.0.id');
    expect(message).toContain('operators.1.role');
    expect(message).toContain('operators.1.passwordHash');
    expect(message).toContain('treeagent operator-password');
  });

  it('refuses duplicate ids, invalid JSON and a missing file', () => {
    expect(() => loadOperatorsFile(file(JSON.stringify({ operators: [accounts[1], accounts[1]] })))).toThrow(
      /"bruno" appears twice/,
    );
    expect(() => loadOperatorsFile(file('{ operators'))).toThrow(/not valid JSON/);
    expect(() => loadOperatorsFile(join(tmpdir(), 'no-such-dir-x', 'operators.json'))).toThrow(
      /Cannot read the operators file/,
    );
  });
});

describe('operator authentication', () => {
  it('login sets an HttpOnly SameSite=Strict cookie, never the token in the body; /me and logout', async () => {
    const { app, auditLog } = operatorApp();
    const response = await app.request('/api/v1/operator/login', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ login: 'bruno', password: OPERATOR_PASSWORDS.bruno }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^treeagent_operator=[\w-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/api');
    const token = /treeagent_operator=([^;]+)/.exec(cookie)![1]!;
    const body = await read(response);
    expect(body.operator).toEqual({ id: 'bruno', name: 'Bruno Bianchi', role: 'operator' });
    expect(JSON.stringify(body)).not.toContain(token);

    const byCookie = await app.request('/api/v1/operator/me', {
      headers: { Cookie: `treeagent_operator=${token}` },
    });
    expect((await read(byCookie)).operator.id).toBe('bruno');
    const byHeader = await app.request('/api/v1/operator/me', { headers: { 'X-Operator-Token': token } });
    expect(byHeader.status).toBe(200);

    expect(
      (
        await app.request('/api/v1/operator/logout', {
          method: 'POST',
          headers: { 'X-Operator-Token': token },
        })
      ).status,
    ).toBe(204);
    expect(
      (await app.request('/api/v1/operator/me', { headers: { 'X-Operator-Token': token } })).status,
    ).toBe(401);
    expect((await auditLog.list()).map((entry) => [entry.actorId, entry.action])).toEqual([
      ['bruno', 'operator.logout'],
      ['bruno', 'operator.login'],
    ]);
  });

  it('a wrong password and an unknown login get the same 401; both are audited without the password', async () => {
    const { app, auditLog } = operatorApp();
    const attempt = (login: string, password: string) =>
      app.request('/api/v1/operator/login', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ login, password }),
      });
    const wrong = await attempt('bruno', 'not-the-password');
    const unknown = await attempt('mallory', 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect((await read(wrong)).error.message).toBe((await read(unknown)).error.message);
    const entries = await auditLog.list();
    expect(entries.map((entry) => [entry.actorId, entry.action])).toEqual([
      ['unknown', 'operator.login-failed'],
      ['bruno', 'operator.login-failed'],
    ]);
    expect(JSON.stringify(entries)).not.toContain('not-the-password');
    expect(JSON.stringify(entries)).not.toContain('mallory');
  });

  it('a session token is not an operator credential, and an operator login is not a session token', async () => {
    const { app } = operatorApp();
    const session = await createSession(app);
    const token = await loginOperator(app, 'anna');
    expect(
      (await app.request('/api/v1/operator/me', { headers: { 'X-Operator-Token': session.token } })).status,
    ).toBe(401);
    expect(
      (
        await app.request('/api/v1/operator/me', {
          headers: { Cookie: `treeagent_operator=${session.token}` },
        })
      ).status,
    ).toBe(401);
    const history = await app.request(`/api/v1/sessions/${session.sessionId}/history`, {
      headers: { 'X-Session-Token': token, Cookie: `treeagent_operator=${token}`, 'X-Operator-Token': token },
    });
    expect(history.status).toBe(403);
  });

  it('the API key is not an operator credential either, and is still required when configured', async () => {
    const key = 'sk-operators-test-key';
    const { app } = operatorApp({ apiKeys: [key] });
    const auth = { Authorization: `Bearer ${key}` };
    expect((await app.request('/api/v1/operator/me', { headers: auth })).status).toBe(401);
    const noKey = await app.request('/api/v1/operator/login', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ login: 'anna', password: OPERATOR_PASSWORDS.anna }),
    });
    expect(noKey.status).toBe(401);
    const token = await loginOperator(app, 'anna', auth);
    expect(
      (await app.request('/api/v1/operator/me', { headers: { 'X-Operator-Token': token } })).status,
    ).toBe(401);
    expect(
      (await app.request('/api/v1/operator/me', { headers: { ...auth, 'X-Operator-Token': token } })).status,
    ).toBe(200);
  });

  it('roles: an operator may not read the audit log; an admin may, filtered and paged', async () => {
    const { app } = operatorApp();
    const bruno = await loginOperator(app, 'bruno');
    const anna = await loginOperator(app, 'anna');
    const refused = await app.request('/api/v1/operator/audit', { headers: { 'X-Operator-Token': bruno } });
    expect(refused.status).toBe(403);
    expect((await read(refused)).error.message).toContain('admin role');
    const page = await app.request('/api/v1/operator/audit?limit=1', {
      headers: { 'X-Operator-Token': anna },
    });
    expect(page.status).toBe(200);
    const body = await read(page);
    expect(body.entries.map((entry) => `${entry.actorId} ${entry.action}`)).toEqual(['anna operator.login']);
    expect(typeof body.nextBeforeId).toBe('number');
    const next = await app.request(`/api/v1/operator/audit?limit=5&beforeId=${body.nextBeforeId}`, {
      headers: { 'X-Operator-Token': anna },
    });
    const rest = await read(next);
    expect(rest.entries.map((entry) => entry.actorId)).toEqual(['bruno']);
    expect(rest.nextBeforeId).toBeNull();
    const bad = await app.request('/api/v1/operator/audit?limit=0', {
      headers: { 'X-Operator-Token': anna },
    });
    expect(bad.status).toBe(400);
  });

  it('refuses a cookie-authenticated state change from another origin (CSRF)', async () => {
    const { app } = operatorApp();
    const token = await loginOperator(app, 'bruno');
    const cookie = { Cookie: `treeagent_operator=${token}`, Host: 'desk.example' };
    const foreign = await app.request('http://desk.example/api/v1/operator/logout', {
      method: 'POST',
      headers: { ...cookie, Origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const same = await app.request('http://desk.example/api/v1/operator/logout', {
      method: 'POST',
      headers: { ...cookie, Origin: 'http://desk.example' },
    });
    expect(same.status).toBe(204);
  });

  it('an expired login, or an operator removed from the directory, no longer opens anything', async () => {
    let present = true;
    const base = operatorDirectory(accounts);
    const directory: OperatorDirectory = {
      authenticate: (login, password) => base.authenticate(login, password),
      find: async (id) => (present ? base.find(id) : null),
    };
    const { app } = testApp({ operators: { directory } });
    const token = await loginOperator(app, 'bruno');
    expect(
      (await app.request('/api/v1/operator/me', { headers: { 'X-Operator-Token': token } })).status,
    ).toBe(200);
    present = false;
    expect(
      (await app.request('/api/v1/operator/me', { headers: { 'X-Operator-Token': token } })).status,
    ).toBe(401);

    const short = testApp({ operators: { directory: base, loginTtlMs: 1 } }).app;
    const expiring = await loginOperator(short, 'bruno');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(
      (await short.request('/api/v1/operator/me', { headers: { 'X-Operator-Token': expiring } })).status,
    ).toBe(401);
  });

  it('a server without operators answers 404 and says how to configure them', async () => {
    const { app } = testApp();
    const response = await app.request('/api/v1/operator/login', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ login: 'anna', password: OPERATOR_PASSWORDS.anna }),
    });
    expect(response.status).toBe(404);
    expect((await read(response)).error.message).toContain('operators');
  });

  it('an action that cannot be audited is refused (503), and the failure is logged', async () => {
    const { app, logger } = testApp({
      operators: {
        directory: operatorDirectory(accounts),
        auditLog: {
          append: async () => {
            throw new Error('disk full');
          },
          list: async () => [],
        },
      },
    });
    const response = await app.request('/api/v1/operator/login', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ login: 'anna', password: OPERATOR_PASSWORDS.anna }),
    });
    expect(response.status).toBe(503);
    expect((await read(response)).error.code).toBe('AUDIT_LOG');
    expect(logger.entries.some((entry) => entry.message.includes('audit log'))).toBe(true);
  });
});

describe("the login cookie's Secure flag", () => {
  /** What @hono/node-server passes as the env: the socket, whose peer is `address`. */
  const peer = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });

  /** Logs bruno in from `address` with `headers`; returns the Set-Cookie of the login and of the logout. */
  async function cookies(app: ReturnType<typeof operatorApp>['app'], address: string, headers = {}) {
    const login = await app.request(
      '/api/v1/operator/login',
      {
        method: 'POST',
        headers: { ...json, ...headers },
        body: JSON.stringify({ login: 'bruno', password: OPERATOR_PASSWORDS.bruno }),
      },
      peer(address),
    );
    expect(login.status).toBe(200);
    const token = /treeagent_operator=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1]!;
    const logout = await app.request(
      '/api/v1/operator/logout',
      { method: 'POST', headers: { 'X-Operator-Token': token, ...headers } },
      peer(address),
    );
    return [login.headers.get('set-cookie') ?? '', logout.headers.get('set-cookie') ?? ''];
  }
  const secure = /;\s*Secure/i;

  it('X-Forwarded-Proto and Forwarded are ignored without trustProxy: a client cannot choose it', async () => {
    const { app } = operatorApp();
    for (const headers of [{ 'X-Forwarded-Proto': 'https' }, { Forwarded: 'for=203.0.113.7;proto=https' }]) {
      for (const cookie of await cookies(app, '203.0.113.7', headers)) expect(cookie).not.toMatch(secure);
    }
  });

  it('X-Forwarded-Proto is read only from a trusted proxy', async () => {
    const { app } = operatorApp({ trustProxy: ['10.0.0.1'] });
    const https = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '203.0.113.7' };
    for (const cookie of await cookies(app, '10.0.0.1', https)) expect(cookie).toMatch(secure);
    for (const cookie of await cookies(app, '203.0.113.7', https)) expect(cookie).not.toMatch(secure);
    // The nearest proxy's value counts: a client's "https" before the proxy's "http" does not.
    for (const cookie of await cookies(app, '10.0.0.1', { 'X-Forwarded-Proto': 'https, http' }))
      expect(cookie).not.toMatch(secure);
  });

  it("with trustProxy's Forwarded header, proto= of the proxy's element is read, X-Forwarded-Proto not", async () => {
    const { app } = operatorApp({ trustProxy: { addresses: ['10.0.0.1'], header: 'forwarded' } });
    for (const cookie of await cookies(app, '10.0.0.1', { Forwarded: 'for=203.0.113.7;proto=https' }))
      expect(cookie).toMatch(secure);
    for (const cookie of await cookies(app, '10.0.0.1', { 'X-Forwarded-Proto': 'https' }))
      expect(cookie).not.toMatch(secure);
  });
});
