import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { identityFromClaims, OidcRefusal } from './oidc-claims.js';
import { type OidcOptions, resolveClientSecret } from './oidc-options.js';

const base: OidcOptions = {
  issuer: 'https://login.example.com',
  clientId: 'console',
  redirectUri: 'https://agent.example.com/api/v1/operator/oidc/callback',
  adminGroups: ['admins'],
  operatorGroups: ['helpdesk'],
};

describe('single sign-on settings', () => {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-oidc-secret-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('reads the client secret from a 0600 file and refuses one readable by others, naming the fix', () => {
    const file = join(directory, 'secret');
    writeFileSync(file, 's3cret\n');
    chmodSync(file, 0o600);
    expect(resolveClientSecret({ ...base, clientSecretFile: file })).toBe('s3cret');
    chmodSync(file, 0o644);
    expect(() => resolveClientSecret({ ...base, clientSecretFile: file })).toThrow(`run chmod 600 ${file}`);
  });

  it('reads it from the environment, and wants exactly one source', () => {
    process.env.TEST_OIDC_SECRET = 'from-env';
    expect(resolveClientSecret({ ...base, clientSecretEnv: 'TEST_OIDC_SECRET' })).toBe('from-env');
    expect(() => resolveClientSecret({ ...base, clientSecretEnv: 'TEST_OIDC_MISSING' })).toThrow(
      'TEST_OIDC_MISSING, which is not set',
    );
    expect(() => resolveClientSecret(base)).toThrow(
      'exactly one of clientSecret, clientSecretEnv or clientSecretFile (0 given)',
    );
    expect(() =>
      resolveClientSecret({ ...base, clientSecret: 'a', clientSecretEnv: 'TEST_OIDC_SECRET' }),
    ).toThrow('(2 given)');
  });

  it('maps the groups claim to the role and the teams; a user in none of the groups is refused', () => {
    expect(
      identityFromClaims(
        {
          sub: 'x1',
          preferred_username: 'bruno',
          name: 'Bruno',
          groups: ['helpdesk', 'team:sales', 'team:b2b'],
        },
        base,
      ),
    ).toEqual({ id: 'bruno', name: 'Bruno', role: 'operator', teams: ['b2b', 'sales'] });
    expect(
      identityFromClaims(
        { sub: 'x2', email: 'a@example.com', roles: ['admins', 'helpdesk'] },
        {
          ...base,
          groupsClaim: 'roles',
        },
      ),
    ).toEqual({ id: 'a@example.com', name: 'a@example.com', role: 'admin', teams: [] });
    expect(() => identityFromClaims({ sub: 'x3', groups: ['marketing'] }, base)).toThrow(OidcRefusal);
    expect(() => identityFromClaims({ sub: 'x3', groups: 'helpdesk' }, base)).toThrow(
      'in none of the operator or admin groups',
    );
  });
});
