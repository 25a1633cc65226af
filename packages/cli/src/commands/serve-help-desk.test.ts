import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signWebhook } from '@treeagent/server';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestOidcProvider } from '../../../server/src/test-support/oidc-provider.js';
import { main } from '../main.js';
import type { Output } from '../output.js';
import { freePort, HANDOFF_MESSAGE, writeClusterFiles } from '../test-support/cluster.js';
import { helpDeskState, useHelpDesk, writeHelpDeskOperators } from '../test-support/help-desk.js';
import { startServe } from './serve.js';

const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-help-desk-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const quiet: Output = { log: () => undefined, write: () => undefined, error: () => undefined };

describe('treeagent serve: the help desk in the SQLite data directory', () => {
  it('a canned response and a CSAT rating survive a restart', async () => {
    const files = await writeClusterFiles(scratch);
    const operators = await writeHelpDeskOperators(scratch);
    const options = { port: '0', data: join(scratch, 'data'), operators };
    const first = await startServe(files.tree, options, quiet);
    try {
      await useHelpDesk(first.url);
    } finally {
      await first.close();
    }
    const second = await startServe(files.tree, options, quiet);
    try {
      const state = await helpDeskState(second.url);
      expect(state.shortcuts).toEqual(['greet']);
      expect(state.ratings).toMatchObject({
        count: 1,
        average: 4,
        comments: [{ comment: 'Kind and quick' }],
      });
    } finally {
      await second.close();
    }
  }, 60_000);
});

/** Writes a configuration file (no models: the cluster tree needs none) with `sections`; returns its path. */
function writeConfig(name: string, sections: Record<string, unknown>): string {
  const file = join(scratch, name);
  writeFileSync(file, JSON.stringify({ models: {}, ...sections }));
  return file;
}

/** A webhook receiver on loopback that keeps each delivery's body and signature. */
async function webhookReceiver() {
  const deliveries: { body: string; signature: string }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      deliveries.push({ body, signature: String(request.headers['x-treeagent-signature'] ?? '') });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('treeagent serve: the helpDesk and oidc sections of the configuration file', () => {
  it('a team closed by its hours answers with its out-of-hours message; the handoff webhook is signed with the secret of a 0600 file', async () => {
    const files = await writeClusterFiles(scratch);
    const operators = await writeHelpDeskOperators(scratch);
    const receiver = await webhookReceiver();
    writeFileSync(join(scratch, 'hook-secret'), 'a-webhook-secret-from-a-file\n');
    chmodSync(join(scratch, 'hook-secret'), 0o600);
    const config = writeConfig('closed.config.json', {
      helpDesk: {
        teams: {
          cluster: {
            policy: 'round-robin',
            name: 'Cluster desk',
            hours: { timeZone: 'Europe/Rome', open: {} },
            outOfHoursMessage: 'Closed now: leave a message and we answer at 9.',
          },
        },
        webhook: { url: receiver.url, secretFile: 'hook-secret' },
      },
    });
    const server = await startServe(
      files.tree,
      { port: '0', data: join(scratch, 'closed'), operators, config },
      quiet,
    );
    try {
      const session = (await (await fetch(`${server.url}/api/v1/sessions`, { method: 'POST' })).json()) as {
        sessionId: string;
        token: string;
      };
      const headers = { 'content-type': 'application/json', 'x-session-token': session.token };
      await fetch(`${server.url}/api/v1/sessions/${session.sessionId}/messages`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ message: HANDOFF_MESSAGE }),
      });
      const history = async () =>
        (
          (await (
            await fetch(`${server.url}/api/v1/sessions/${session.sessionId}/history`, { headers })
          ).json()) as {
            history: { content: string; operator?: { name: string } }[];
          }
        ).history;
      await expect
        .poll(
          async () =>
            (await history()).find((entry) => entry.content.startsWith('Closed now'))?.operator?.name,
        )
        .toBe('Cluster desk');
      await expect.poll(() => receiver.deliveries.length, { timeout: 15_000 }).toBeGreaterThan(0);
      const delivery = receiver.deliveries[0]!;
      expect(JSON.parse(delivery.body)).toMatchObject({ type: 'handoff.started', queue: 'cluster' });
      const timestamp = Number(/t=(\d+)/.exec(delivery.signature)?.[1]);
      expect(delivery.signature).toBe(signWebhook('a-webhook-secret-from-a-file', timestamp, delivery.body));
    } finally {
      await server.close();
      await receiver.close();
    }
  }, 60_000);

  it('escalation by e-mail: a conversation left waiting is mailed through SMTP, logged in with the password from the environment', async () => {
    const files = await writeClusterFiles(scratch);
    const operators = await writeHelpDeskOperators(scratch);
    const mails: { user: string; to: string[]; data: string }[] = [];
    const smtp = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === 'desk' && auth.password === 'smtp-password-from-env')
          return callback(null, { user: auth.username });
        return callback(new Error('Invalid username or password'));
      },
      onData(stream, session, callback) {
        let data = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => {
          data += chunk;
        });
        stream.on('end', () => {
          mails.push({
            user: String(session.user),
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    process.env.TEST_SERVE_SMTP_PASSWORD = 'smtp-password-from-env';
    const config = writeConfig('escalation.config.json', {
      helpDesk: {
        escalation: {
          afterMs: 300,
          checkEveryMs: 100,
          email: {
            smtp: {
              host: '127.0.0.1',
              port: (smtp.server.address() as AddressInfo).port,
              user: 'desk',
              passwordEnv: 'TEST_SERVE_SMTP_PASSWORD',
            },
            from: 'desk@example.com',
            to: ['lead@example.com'],
          },
        },
      },
    });
    const server = await startServe(
      files.tree,
      { port: '0', data: join(scratch, 'escalation'), operators, config },
      quiet,
    );
    try {
      const session = (await (await fetch(`${server.url}/api/v1/sessions`, { method: 'POST' })).json()) as {
        sessionId: string;
        token: string;
      };
      await fetch(`${server.url}/api/v1/sessions/${session.sessionId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-session-token': session.token },
        body: JSON.stringify({ message: HANDOFF_MESSAGE }),
      });
      await expect.poll(() => mails.length, { timeout: 15_000 }).toBe(1);
      expect(mails[0]).toMatchObject({ user: 'desk', to: ['lead@example.com'] });
      expect(mails[0]!.data).toMatch(/Subject: \[cluster\] A conversation has waited/);
    } finally {
      delete process.env.TEST_SERVE_SMTP_PASSWORD;
      await server.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  }, 60_000);

  it('refuses to start with a secret other users can read, or an OIDC client secret that is missing, naming the fix', async () => {
    const files = await writeClusterFiles(scratch);
    writeFileSync(join(scratch, 'open-secret'), 'a-webhook-secret');
    chmodSync(join(scratch, 'open-secret'), 0o644);
    const run = async (config: string) => {
      const errors: string[] = [];
      const out: Output = {
        log: () => undefined,
        write: () => undefined,
        error: (line) => errors.push(line),
      };
      const code = await main(
        ['serve', files.tree, '--port', '0', '--data', join(scratch, 'refused'), '--config', config],
        out,
      );
      return { code, errors: errors.join('\n') };
    };
    const open = await run(
      writeConfig('open.config.json', {
        helpDesk: { webhook: { url: 'https://desk.example.com/hook', secretFile: 'open-secret' } },
      }),
    );
    expect(open.code).toBe(2);
    expect(open.errors).toContain('helpDesk.webhook.secretFile');
    expect(open.errors).toContain(`chmod 600 ${join(scratch, 'open-secret')}`);
    delete process.env.TEST_MISSING_OIDC_SECRET;
    const missing = await run(
      writeConfig('oidc-missing.config.json', {
        oidc: {
          issuer: 'https://login.example.com',
          clientId: 'treeagent-console',
          clientSecretEnv: 'TEST_MISSING_OIDC_SECRET',
          redirectUri: 'https://agent.example.com/api/v1/operator/oidc/callback',
          operatorGroups: ['helpdesk'],
        },
      }),
    );
    expect(missing.code).toBe(2);
    expect(missing.errors).toContain(
      '"oidc.clientSecretEnv" names the environment variable TEST_MISSING_OIDC_SECRET, which is not set',
    );
  }, 60_000);

  it('oidc: the console signs in through the configured provider (a real oidc-provider), without an operators file', async () => {
    const files = await writeClusterFiles(scratch);
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/api/v1/operator/oidc/callback`;
    const provider = await startTestOidcProvider({
      accounts: {
        bruno: { password: 'bruno-sso-1', name: 'Bruno', email: 'bruno@example.com', groups: ['helpdesk'] },
      },
      redirectUris: [redirectUri],
      postLogoutRedirectUris: [`http://127.0.0.1:${port}/staff/console`],
    });
    writeFileSync(join(scratch, 'oidc-secret'), provider.clientSecret);
    chmodSync(join(scratch, 'oidc-secret'), 0o600);
    const config = writeConfig('oidc.config.json', {
      oidc: {
        issuer: provider.issuer,
        allowInsecureIssuer: true,
        clientId: provider.clientId,
        clientSecretFile: 'oidc-secret',
        redirectUri,
        adminGroups: ['helpdesk-admins'],
        operatorGroups: ['helpdesk'],
        label: 'Sign in with the test provider',
      },
    });
    const server = await startServe(
      files.tree,
      { port: String(port), data: join(scratch, 'oidc'), config },
      quiet,
    );
    try {
      const about = await fetch(`${server.url}/api/v1/operator/oidc`);
      expect(await about.json()).toEqual({ enabled: true, label: 'Sign in with the test provider' });
      const start = await fetch(`${server.url}/api/v1/operator/oidc/login`, { redirect: 'manual' });
      expect(start.status).toBe(302);
      const location = new URL(start.headers.get('location')!);
      expect(location.origin).toBe(new URL(provider.issuer).origin);
      expect(location.searchParams.get('client_id')).toBe(provider.clientId);
      expect(location.searchParams.get('redirect_uri')).toBe(redirectUri);
      expect(location.searchParams.get('code_challenge_method')).toBe('S256');
      // The provider accepts the request: it sends the browser to its sign-in form, not back with an error.
      const authorize = await fetch(location, { redirect: 'manual' });
      expect(authorize.status).toBe(303);
      expect(authorize.headers.get('location')).toMatch(/\/interaction\//);
    } finally {
      await server.close();
      await provider.close();
    }
  }, 60_000);
});
