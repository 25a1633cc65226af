import { createSign, generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OidcLogin } from './oidc-login.js';
import type { OidcOptions } from './oidc-options.js';

/**
 * `OidcLogin.finish` against a provider of a few lines whose token endpoint answers the ID token a
 * test chooses: its claims, and the key that signs it (the one the provider publishes, or another).
 * The full sign-in with a real provider is `oidc.browser.test.ts`.
 */
const published = generateKeyPairSync('rsa', { modulusLength: 2048 });
const rogue = generateKeyPairSync('rsa', { modulusLength: 2048 });
const KID = 'provider-key-1';

function signJwt(payload: Record<string, unknown>, key: KeyObject): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg: 'RS256', typ: 'JWT', kid: KID })}.${part(payload)}`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(key).toString('base64url')}`;
}

describe('OidcLogin.finish', () => {
  let server: Server;
  let issuer: string;
  /** What the token endpoint answers next: the ID token's claims (less iss, aud, nonce, times) and its key. */
  let next: { claims: Record<string, unknown>; key: KeyObject } = { claims: {}, key: published.privateKey };
  let nonce = '';

  beforeAll(async () => {
    server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', issuer);
      response.setHeader('content-type', 'application/json');
      if (url.pathname === '/.well-known/openid-configuration') {
        response.end(
          JSON.stringify({
            issuer,
            authorization_endpoint: `${issuer}/authorize`,
            token_endpoint: `${issuer}/token`,
            jwks_uri: `${issuer}/jwks`,
            response_types_supported: ['code'],
            subject_types_supported: ['public'],
            id_token_signing_alg_values_supported: ['RS256'],
            code_challenge_methods_supported: ['S256'],
          }),
        );
      } else if (url.pathname === '/jwks') {
        const jwk: JsonWebKey = published.publicKey.export({ format: 'jwk' });
        response.end(JSON.stringify({ keys: [{ ...jwk, kid: KID, alg: 'RS256', use: 'sig' }] }));
      } else if (url.pathname === '/token') {
        const now = Math.floor(Date.now() / 1000);
        const idToken = signJwt(
          { iss: issuer, aud: 'console', nonce, iat: now, exp: now + 300, ...next.claims },
          next.key,
        );
        response.end(
          JSON.stringify({ access_token: 'at', token_type: 'Bearer', expires_in: 300, id_token: idToken }),
        );
      } else {
        response.statusCode = 404;
        response.end('{}');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const options = (): OidcOptions => ({
    issuer,
    clientId: 'console',
    clientSecret: 'test-secret',
    redirectUri: 'https://help.example.com/api/v1/operator/oidc/callback',
    adminGroups: ['helpdesk-admins'],
    operatorGroups: ['helpdesk'],
    allowInsecureIssuer: true,
  });

  async function signIn(claims: Record<string, unknown>, key = published.privateKey) {
    const login = new OidcLogin(options());
    const { url, cookie } = await login.start('/staff/console');
    nonce = url.searchParams.get('nonce') ?? '';
    next = { claims, key };
    const pending = login.pending(cookie)!;
    const callback = new URL(options().redirectUri);
    callback.search = new URLSearchParams({ code: 'the-code', state: pending.state }).toString();
    return login.finish(callback, pending);
  }

  it('maps a token signed by the provider to an operator keyed on its subject', async () => {
    const { operator } = await signIn({
      sub: 'f3a1-77',
      preferred_username: 'bruno',
      name: 'Bruno Bianchi',
      groups: ['helpdesk', 'team:sales'],
    });
    expect(operator).toEqual({
      id: 'sso:f3a1-77',
      name: 'Bruno Bianchi',
      role: 'operator',
      teams: ['sales'],
    });
  });

  it('refuses an ID token signed by a key the provider does not publish', async () => {
    const refused = await signIn(
      { sub: 'mallory-sub', name: 'Mallory', groups: ['helpdesk-admins'] },
      rogue.privateKey,
    ).then(
      () => null,
      (error: { cause?: Error }) => error,
    );
    expect(refused?.cause?.message).toBe('JWT signature verification failed');
  });

  it("does not make another operator's username an operator id: another subject is another operator", async () => {
    const { operator } = await signIn({
      sub: 'mallory-sub',
      preferred_username: 'carla',
      name: 'Mallory',
      email: 'carla@example.com',
      groups: ['helpdesk'],
    });
    expect(operator.id).toBe('sso:mallory-sub');
    expect(operator.name).toBe('Mallory');
  });
});
