import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import type { OperatorIdentity } from '../operator-accounts.js';
import { identityFromClaims } from './oidc-claims.js';
import { type OidcOptions, resolveClientSecret } from './oidc-options.js';

/** What the browser keeps between the redirect to the provider and the callback (signed, HttpOnly). */
interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
  /** Unix milliseconds after which the callback is refused. */
  expires: number;
}

/** How long a sign-in may take at the provider. */
const PENDING_TTL_MS = 10 * 60 * 1000;

/**
 * The relying party's side of single sign-on (`openid-client`): builds the provider's authorization
 * URL with PKCE (S256), a state and a nonce; checks the callback (state, nonce, the ID token's
 * signature, issuer, audience and expiry); maps the claims to an operator. The pending sign-in is
 * kept by the browser in a cookie signed with a key derived from the client secret, so any server
 * process can finish a sign-in another one started.
 */
export class OidcLogin {
  readonly options: OidcOptions;
  readonly #secret: string;
  readonly #key: Buffer;
  #configuration: Promise<client.Configuration> | null = null;

  constructor(options: OidcOptions) {
    this.options = options;
    this.#secret = resolveClientSecret(options);
    this.#key = createHash('sha256').update(`treeagent-oidc-pending\0${this.#secret}`).digest();
    for (const [name, value] of [
      ['issuer', options.issuer],
      ['redirectUri', options.redirectUri],
    ] as const) {
      try {
        new URL(value);
      } catch {
        throw new TypeError(`operators.oidc.${name} ${JSON.stringify(value)} is not an absolute URL.`);
      }
    }
  }

  /** The provider's metadata, read once (again after a failure). */
  configuration(): Promise<client.Configuration> {
    this.#configuration ??= client
      .discovery(
        new URL(this.options.issuer),
        this.options.clientId,
        undefined,
        client.ClientSecretBasic(this.#secret),
        {
          // Check the ID token's signature against the provider's published keys (openid-client
          // skips it for a token from the token endpoint unless asked: its TLS vouches for it).
          execute: [
            client.enableNonRepudiationChecks,
            ...(this.options.allowInsecureIssuer ? [client.allowInsecureRequests] : []),
          ],
        },
      )
      .catch((error: unknown) => {
        this.#configuration = null;
        throw new Error(
          `The OpenID provider ${this.options.issuer} cannot be reached or is not a provider (${(error as Error).message}); check operators.oidc.issuer.`,
          { cause: error },
        );
      });
    return this.#configuration;
  }

  /** Starts a sign-in: the provider's URL to redirect to, and the signed cookie value to keep. */
  async start(returnTo: string, now = Date.now()): Promise<{ url: URL; cookie: string }> {
    const configuration = await this.configuration();
    const pending: PendingSignIn = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      returnTo,
      expires: now + PENDING_TTL_MS,
    };
    const claim = this.options.groupsClaim ?? 'groups';
    const scopes = this.options.scopes ?? [
      'openid',
      'profile',
      'email',
      ...(claim === 'groups' ? ['groups'] : []),
    ];
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.options.redirectUri,
      scope: scopes.join(' '),
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
    return { url, cookie: this.#sign(pending) };
  }

  /** The pending sign-in of a cookie, or `null` when it is missing, forged or too old. */
  pending(cookie: string | undefined, now = Date.now()): PendingSignIn | null {
    if (!cookie) return null;
    const [body, mac] = cookie.split('.');
    if (!body || !mac) return null;
    const expected = createHmac('sha256', this.#key).update(body).digest();
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const pending = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as PendingSignIn;
    return pending.expires > now ? pending : null;
  }

  /**
   * Finishes a sign-in from the callback URL: the code exchanged (with the PKCE verifier), the ID
   * token checked, its claims mapped. Throws `OidcRefusal` for a user who is not an operator, and
   * the provider's or the library's error otherwise.
   */
  async finish(
    callbackUrl: URL,
    pending: PendingSignIn,
  ): Promise<{ operator: OperatorIdentity; idToken: string | undefined }> {
    const configuration = await this.configuration();
    const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims() ?? {};
    return { operator: identityFromClaims(claims, this.options), idToken: tokens.id_token };
  }

  /** The provider's end-session URL (RP-initiated logout), or `null` when it has none. */
  async endSessionUrl(idToken: string | undefined, origin: string): Promise<string | null> {
    const configuration = await this.configuration();
    if (!configuration.serverMetadata().end_session_endpoint) return null;
    return client
      .buildEndSessionUrl(configuration, {
        ...(idToken ? { id_token_hint: idToken } : { client_id: this.options.clientId }),
        post_logout_redirect_uri: this.options.postLogoutRedirectUri ?? `${origin}/staff/console`,
      })
      .toString();
  }

  #sign(pending: PendingSignIn): string {
    const body = Buffer.from(JSON.stringify(pending), 'utf8').toString('base64url');
    return `${body}.${createHmac('sha256', this.#key).update(body).digest('base64url')}`;
  }
}
