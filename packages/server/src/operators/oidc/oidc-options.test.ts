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
    ).toEqual({ id: 'sso:x1', name: 'Bruno', role: 'operator', teams: ['b2b', 'sales'] });
    expect(
      identityFromClaims(
        { sub: 'x2', email: 'a@example.com', roles: ['admins', 'helpdesk'] },
        {
          ...base,
          groupsClaim: 'roles',
        },
      ),
    ).toEqual({ id: 'sso:x2', name: 'sso:x2', role: 'admin', teams: [] });
    expect(() => identityFromClaims({ sub: 'x3', groups: ['marketing'] }, base)).toThrow(OidcRefusal);
    expect(() => identityFromClaims({ sub: 'x3', groups: 'helpdesk' }, base)).toThrow(
      'in none of the operator or admin groups',
    );
  });

  it('keys the operator on the subject, never on a username or e-mail the user may choose', () => {
    const claims = { sub: 'mallory-sub', preferred_username: 'carla', groups: ['helpdesk'] };
    // The id can never be an operators-file id (those have no ":"); the username only names them.
    expect(identityFromClaims(claims, base)).toMatchObject({ id: 'sso:mallory-sub', name: 'carla' });
    // An e-mail names the operator only when the provider verified it.
    const mail = { sub: 's1', email: 'carla@example.com', groups: ['helpdesk'] };
    expect(identityFromClaims(mail, base).name).toBe('sso:s1');
    expect(identityFromClaims({ ...mail, email_verified: true }, base).name).toBe('carla@example.com');
    // A subject with other characters or too long for an id: a hash of it, stable and at most 64.
    const long = identityFromClaims(
      { sub: `https://id.example.com/u/${'9'.repeat(80)}`, groups: ['helpdesk'] },
      base,
    );
    expect(long.id).toMatch(/^sso:[A-Za-z0-9_-]{43}$/);
    expect(
      identityFromClaims({ sub: `https://id.example.com/u/${'9'.repeat(80)}`, groups: ['helpdesk'] }, base)
        .id,
    ).toBe(long.id);
    expect(() => identityFromClaims({ preferred_username: 'carla', groups: ['helpdesk'] }, base)).toThrow(
      OidcRefusal,
    );
  });
});
