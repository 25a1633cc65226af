import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OidcOptions } from './operators/oidc/oidc-options.js';
import { type RunningServer, serve } from './serve.js';
import { launchChromium, openPage } from './test-support/browser.js';
import { memoryLogger, testAgent } from './test-support/fixtures.js';
import { freePort, startTestOidcProvider, type TestOidcProvider } from './test-support/oidc-provider.js';
import { WEB_DIRECTORY } from './web-directory.js';

/**
 * Single sign-on end to end in Chromium against a real OpenID provider (`oidc-provider` on
 * loopback): the console's button, the provider's form, the callback (code + PKCE), the role and
 * teams from the groups claim; a disabled account and a user outside the groups refused with the
 * reason; logout ends the console's event stream; an expired login asks for a sign-in again.
 */
describe('single sign-on for operators (OpenID Connect, Chromium)', () => {
  let browser: Browser;
  let provider: TestOidcProvider;
  let server: RunningServer;
  let shortServer: RunningServer;
  let directory: string;
  const logger = memoryLogger();

  beforeAll(async () => {
    const [port, shortPort] = [await freePort(), await freePort()];
    const base = `http://127.0.0.1:${port}`;
    const shortBase = `http://127.0.0.1:${shortPort}`;
    provider = await startTestOidcProvider({
      accounts: {
        bruno: {
          password: 'bruno-sso-1',
          name: 'Bruno Bianchi',
          email: 'bruno@example.com',
          groups: ['helpdesk', 'team:sales'],
        },
        anna: {
          password: 'anna-sso-1',
          name: 'Anna Rossi',
          email: 'anna@example.com',
          groups: ['helpdesk-admins', 'team:support'],
        },
        dora: {
          password: 'dora-sso-1',
          name: 'Dora',
          email: 'dora@example.com',
          groups: ['helpdesk'],
          disabled: true,
        },
        eve: { password: 'eve-sso-1', name: 'Eve', email: 'eve@example.com', groups: ['marketing'] },
      },
      redirectUris: [`${base}/api/v1/operator/oidc/callback`, `${shortBase}/api/v1/operator/oidc/callback`],
      postLogoutRedirectUris: [`${base}/staff/console`, `${shortBase}/staff/console`],
    });
    directory = mkdtempSync(join(tmpdir(), 'treeagent-oidc-'));
    const secretFile = join(directory, 'client-secret');
    writeFileSync(secretFile, `${provider.clientSecret}\n`);
    chmodSync(secretFile, 0o600);
    const oidc = (redirect: string): OidcOptions => ({
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecretFile: secretFile,
      redirectUri: `${redirect}/api/v1/operator/oidc/callback`,
      adminGroups: ['helpdesk-admins'],
      operatorGroups: ['helpdesk'],
      label: 'Sign in with Example Corp',
      allowInsecureIssuer: true,
    });
    server = await serve({
      agent: testAgent(),
      port,
      web: { directory: WEB_DIRECTORY },
      logger,
      operators: { oidc: oidc(base) },
    });
    shortServer = await serve({
      agent: testAgent(),
      port: shortPort,
      web: { directory: WEB_DIRECTORY },
      logger,
      operators: { oidc: oidc(shortBase), loginTtlMs: 3000 },
    });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close({ timeoutMs: 1000 });
    await shortServer?.close({ timeoutMs: 1000 });
    await provider?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('refuses a callback this browser did not start (no signed pending sign-in)', async () => {
    const response = await fetch(`${server.url}/api/v1/operator/oidc/callback?code=forged&state=forged`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('OIDC_SIGN_IN');
  });

  async function signIn(page: Page, login: string, password: string) {
    await page.locator('#sso-login').click();
    await page.locator('#login').fill(login);
    await page.locator('#password').fill(password);
    await page.locator('#sign-in').click();
  }

  it('signs an operator in through the provider, with the role and teams of the groups claim; logout ends the event stream', async () => {
    const { page, context, errors } = await openPage(browser, `${server.url}/staff/console`);
    try {
      expect(await page.locator('#sso-login').textContent()).toBe('Sign in with Example Corp');
      await signIn(page, 'bruno', 'bruno-sso-1');
      await page.locator('#operator-name').waitFor();
      expect(page.url()).toBe(`${server.url}/staff/console`);
      expect(await page.locator('#operator-name').textContent()).toBe('Bruno Bianchi');
      expect(provider.signIns).toContain('bruno');
      const me = (await page.evaluate(async () => (await fetch('/api/v1/operator/me')).json())) as {
        operator: unknown;
      };
      // The id is the provider's subject (its accounts' sub is the login here), never a username.
      expect(me.operator).toEqual({
        id: 'sso:bruno',
        name: 'Bruno Bianchi',
        role: 'operator',
        teams: ['sales'],
      });
      // The login is an HttpOnly cookie, as with a password.
      expect(await page.evaluate('document.cookie')).toBe('');

      // An event stream of this login, then Log out: the stream ends.
      await page.evaluate(() => {
        const state = { open: false, ended: false };
        (globalThis as unknown as { stream: typeof state }).stream = state;
        void fetch('/api/v1/operator/events').then(async (response) => {
          state.open = response.ok;
          const reader = response.body!.getReader();
          while (!(await reader.read()).done) {}
          state.ended = true;
        });
      });
      const stream = () =>
        page.evaluate(() => (globalThis as unknown as { stream: { open: boolean; ended: boolean } }).stream);
      await expect.poll(async () => (await stream()).open).toBe(true);
      await page.locator('#operator-logout').click();
      await page.locator('#sso-login').waitFor();
      await expect.poll(async () => (await stream()).ended).toBe(true);
      const after = await page.evaluate(async () => (await fetch('/api/v1/operator/me')).status);
      expect(after).toBe(401);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('makes an admin of the admin group, audited as an oidc login', async () => {
    const { page, context } = await openPage(browser, `${server.url}/staff/audit`);
    try {
      await signIn(page, 'anna', 'anna-sso-1');
      await page.locator('#audit-page').waitFor();
      await page.locator('.audit-row').first().waitFor();
      const audit = (await page.evaluate(async () =>
        (await fetch('/api/v1/operator/audit?action=operator.login')).json(),
      )) as { entries: unknown[] };
      expect(audit.entries[0]).toMatchObject({
        actorId: 'sso:anna',
        actorRole: 'admin',
        detail: { method: 'oidc' },
      });
      // Logging out of single sign-on also gives the provider's end-session URL (RP-initiated logout).
      const logout = await page.evaluate(async () => {
        const response = await fetch('/api/v1/operator/oidc/logout', { method: 'POST' });
        return { status: response.status, body: (await response.json()) as { endSessionUrl: string } };
      });
      expect(logout.status).toBe(200);
      expect(logout.body.endSessionUrl).toMatch(
        new RegExp(`^${provider.issuer}/session/end\\?.*id_token_hint=`),
      );
      expect(await page.evaluate(async () => (await fetch('/api/v1/operator/me')).status)).toBe(401);
    } finally {
      await context.close();
    }
  });

  it('refuses a disabled account (the provider refuses) and a user outside the groups (the claim), saying why', async () => {
    const { page, context } = await openPage(browser, `${server.url}/staff/console`);
    try {
      await signIn(page, 'dora', 'dora-sso-1');
      await page.locator('#sso-error').waitFor();
      expect(await page.locator('#sso-error').textContent()).toBe(
        'The sign-in provider refused the sign-in (access_denied: This account is disabled.).',
      );
      expect(await page.locator('#operator-login').count()).toBe(1);

      // A callback URL anyone could craft, with text in place of an OAuth error code: the audit log
      // keeps no text a caller wrote (it could be anything personal), only that it was no code.
      await page.locator('#sso-login').click();
      await page.locator('#login').waitFor();
      await page.goto(
        `${server.url}/api/v1/operator/oidc/callback?${new URLSearchParams({ error: 'Ada Lovelace ada@example.com' })}`,
      );
      await page.locator('#sso-error').waitFor();
      expect(await page.locator('#sso-error').textContent()).not.toContain('ada@example.com');
      const admin = await openPage(browser, `${server.url}/staff/audit`);
      try {
        await signIn(admin.page, 'anna', 'anna-sso-1');
        await admin.page.locator('#audit-page').waitFor();
        const failed = (await admin.page.evaluate(async () =>
          (await fetch('/api/v1/operator/audit?action=operator.login-failed')).json(),
        )) as { entries: { detail: { error?: string } }[] };
        expect(failed.entries.map((entry) => entry.detail.error).slice(0, 2)).toEqual([
          'not an OAuth error code',
          'access_denied',
        ]);
        expect(JSON.stringify(failed)).not.toContain('ada@example.com');
      } finally {
        await admin.context.close();
      }

      await signIn(page, 'eve', 'eve-sso-1');
      await page.locator('#sso-error').waitFor();
      await expect
        .poll(() => page.locator('#sso-error').textContent())
        .toContain('"eve" is in none of the operator or admin groups');
      const status = await page.evaluate(async () => (await fetch('/api/v1/operator/me')).status);
      expect(status).toBe(401);
    } finally {
      await context.close();
    }
  });

  it('comes back to the page asked for with its query (a link to an open conversation), refused or not', async () => {
    const { page, context } = await openPage(browser, `${server.url}/staff/console?session=s-42`);
    try {
      await signIn(page, 'dora', 'dora-sso-1');
      await page.locator('#sso-error').waitFor();
      const refused = new URL(page.url());
      expect(refused.pathname).toBe('/staff/console');
      expect(refused.searchParams.get('session')).toBe('s-42');
      await signIn(page, 'bruno', 'bruno-sso-1');
      await page.locator('#operator-name').waitFor();
      expect(new URL(page.url()).search).toBe('?session=s-42');
    } finally {
      await context.close();
    }
  });

  it('asks for a sign-in again once the login expired', async () => {
    const { page, context } = await openPage(browser, `${shortServer.url}/staff/console`);
    try {
      await signIn(page, 'bruno', 'bruno-sso-1');
      await page.locator('#operator-name').waitFor();
      await expect
        .poll(() => page.evaluate(async () => (await fetch('/api/v1/operator/me')).status), {
          timeout: 15_000,
        })
        .toBe(401);
      await page.reload();
      await page.locator('#sso-login').waitFor();
    } finally {
      await context.close();
    }
  });
});
