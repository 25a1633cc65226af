import type { createApp } from '../app.js';
import type { OperatorAccount } from '../operators/operator-accounts.js';
import { hashOperatorPassword } from '../operators/operator-password.js';

type App = ReturnType<typeof createApp>;

/** Passwords of the test operators (at least 12 characters, as `hashOperatorPassword` requires). */
export const OPERATOR_PASSWORDS = {
  anna: 'anna-password-1',
  bruno: 'bruno-password-2',
  carla: 'carla-password-3',
};

let accounts: Promise<OperatorAccount[]> | null = null;

/** Three operators: `anna` (admin), `bruno` and `carla` (operators); hashed once per test file. */
export function testOperatorAccounts(): Promise<OperatorAccount[]> {
  accounts ??= Promise.all([
    hashOperatorPassword(OPERATOR_PASSWORDS.anna).then((passwordHash) => ({
      id: 'anna',
      name: 'Anna Rossi',
      role: 'admin' as const,
      passwordHash,
    })),
    hashOperatorPassword(OPERATOR_PASSWORDS.bruno).then((passwordHash) => ({
      id: 'bruno',
      name: 'Bruno Bianchi',
      role: 'operator' as const,
      passwordHash,
    })),
    hashOperatorPassword(OPERATOR_PASSWORDS.carla).then((passwordHash) => ({
      id: 'carla',
      name: 'Carla Verdi',
      role: 'operator' as const,
      passwordHash,
    })),
  ]);
  return accounts;
}

/** Logs `login` in through the API; resolves to the login token (the cookie's value). */
export async function loginOperator(
  app: App,
  login: keyof typeof OPERATOR_PASSWORDS,
  headers: Record<string, string> = {},
): Promise<string> {
  const response = await app.request('/api/v1/operator/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ login, password: OPERATOR_PASSWORDS[login] }),
  });
  if (response.status !== 200)
    throw new Error(`operator login failed: ${response.status} ${await response.text()}`);
  const cookie = /treeagent_operator=([^;]+)/.exec(response.headers.get('set-cookie') ?? '');
  if (!cookie) throw new Error('operator login set no cookie');
  return cookie[1]!;
}

/** The three test operators, each of `teams[id]` in those teams (the others in none). */
export async function testOperatorsInTeams(teams: Record<string, string[]>): Promise<OperatorAccount[]> {
  return (await testOperatorAccounts()).map((account) =>
    teams[account.id] ? { ...account, teams: teams[account.id] } : account,
  );
}
