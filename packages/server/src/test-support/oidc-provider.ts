import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** An account of the test provider: its password, name, groups, and whether the provider refuses it. */
export interface TestOidcAccount {
  password: string;
  name: string;
  email: string;
  groups: string[];
  /** The provider refuses to sign this account in (a disabled account in the company directory). */
  disabled?: boolean;
}

/** A running OpenID provider on loopback (the `oidc-provider` package) with a sign-in form of its own. */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Sign-ins that reached the form and were accepted, by account id. */
  signIns: string[];
  close(): Promise<void>;
}

/**
 * Starts a real OpenID Connect provider for tests: authorization code with PKCE required, one
 * confidential client with the given redirect URIs, the `groups` claim, RP-initiated logout,
 * and a plain sign-in form at `/interaction/:uid` (`#login`, `#password`, `#sign-in`) that refuses a
 * wrong password and a disabled account (`access_denied`, as a company directory does).
 */
export async function startTestOidcProvider(options: {
  accounts: Record<string, TestOidcAccount>;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
}): Promise<TestOidcProvider> {
  const clientId = 'treeagent-console';
  const clientSecret = 'test-client-secret-0123456789abcdef';
  const signIns: string[] = [];
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const provider: Provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    cookies: { keys: ['test-provider-cookie-key'] },
    claims: {
      openid: ['sub'],
      profile: ['name', 'preferred_username'],
      email: ['email'],
      groups: ['groups'],
    },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, id) => {
      const account = options.accounts[id];
      if (!account) return undefined;
      return {
        accountId: id,
        claims: async () => ({
          sub: id,
          name: account.name,
          preferred_username: id,
          email: account.email,
          groups: account.groups,
        }),
      };
    },
    // A first-party client: no consent screen.
    loadExistingGrant: async (ctx): Promise<InstanceType<Provider['Grant']> | undefined> => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grant: InstanceType<Provider['Grant']> = new provider.Grant({ accountId, clientId });
      grant.addOIDCScope('openid profile email groups');
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();
  http.on('request', (request, response) => {
    const url = new URL(request.url ?? '/', issuer);
    const match = /^\/interaction\/([^/]+)$/.exec(url.pathname);
    if (!match) {
      callback(request, response);
      return;
    }
    void (async () => {
      try {
        const details = await provider.interactionDetails(request, response);
        if (request.method === 'GET') {
          response.setHeader('content-type', 'text/html; charset=utf-8');
          response.end(signInForm(url.pathname, ''));
          return;
        }
        const form = new URLSearchParams(await readBody(request));
        const login = form.get('login') ?? '';
        const account = options.accounts[login];
        if (!account || account.password !== form.get('password')) {
          response.setHeader('content-type', 'text/html; charset=utf-8');
          response.end(signInForm(url.pathname, 'Wrong login or password.'));
          return;
        }
        if (account.disabled) {
          await provider.interactionFinished(
            request,
            response,
            { error: 'access_denied', error_description: 'This account is disabled.' },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        signIns.push(login);
        void details;
        await provider.interactionFinished(
          request,
          response,
          { login: { accountId: login } },
          { mergeWithLastSubmission: false },
        );
      } catch (error) {
        response.statusCode = 500;
        response.end(String(error));
      }
    })();
  });
  return {
    issuer,
    clientId,
    clientSecret,
    signIns,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

function signInForm(action: string, error: string): string {
  return `<!doctype html><html><head><title>Company sign-in</title></head><body>
<form method="post" action="${action}"><h1>Company sign-in</h1>${error ? `<p id="error">${error}</p>` : ''}
<input id="login" name="login"><input id="password" name="password" type="password">
<button id="sign-in" type="submit">Sign in</button></form></body></html>`;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      text += chunk;
    });
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

/** A free TCP port on loopback (for a server whose URL must be known before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
