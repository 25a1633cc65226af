import { InMemoryOperatorSessions } from '@treeagent/core/adapter';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../test-support/fixtures.js';
import { loginOperator, OPERATOR_PASSWORDS, testOperatorAccounts } from '../test-support/operators.js';
import { type OperatorAccount, operatorDirectory } from './operator-accounts.js';
import { hashOperatorPassword } from './operator-password.js';

let accounts: OperatorAccount[];
beforeAll(async () => {
  accounts = await testOperatorAccounts();
});

describe('operatorDirectory(...).update applies a new list of operators at once', () => {
  it('removed: login and cookie refused, logins deleted; demoted: admin routes 403; new password: old logins end', async () => {
    const directory = operatorDirectory(accounts);
    const sessions = new InMemoryOperatorSessions();
    const { app } = testApp({ operators: { directory, sessions } });
    const anna = await loginOperator(app, 'anna');
    const bruno = await loginOperator(app, 'bruno');
    const carla = await loginOperator(app, 'carla');
    const call = (token: string, path: string) =>
      app.request(`/api/v1/operator${path}`, { headers: { 'X-Operator-Token': token } });
    expect((await call(anna, '/audit')).status).toBe(200);

    const [annaAccount, , carlaAccount] = accounts;
    const newHash = await hashOperatorPassword('carla-new-password-4');
    const change = directory.update([
      { ...annaAccount!, role: 'operator' },
      { ...carlaAccount!, passwordHash: newHash },
    ]);
    expect(change).toEqual({ removed: ['bruno'], changed: ['anna', 'carla'], passwordChanged: ['carla'] });

    expect((await call(bruno, '/me')).status).toBe(401);
    expect(
      (
        await app.request('/api/v1/operator/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ login: 'bruno', password: OPERATOR_PASSWORDS.bruno }),
        })
      ).status,
    ).toBe(401);
    expect((await call(anna, '/audit')).status).toBe(403);
    expect((await call(anna, '/me')).status).toBe(200);
    expect((await call(carla, '/me')).status).toBe(401);

    // Back in the file: bruno's old login stays ended (it was deleted, not only refused).
    directory.update(accounts);
    expect((await call(bruno, '/me')).status).toBe(401);
    expect((await call(carla, '/me')).status).toBe(401);
    expect((await call(anna, '/audit')).status).toBe(200);
  });

  it('a list that is not valid throws, naming the problem, and keeps the previous operators', async () => {
    const directory = operatorDirectory(accounts);
    expect(() => directory.update([accounts[0]!, accounts[0]!])).toThrow(/"anna" appears twice/);
    expect(await directory.find('bruno')).toMatchObject({ id: 'bruno', role: 'operator' });
  });
});
