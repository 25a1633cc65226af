import { chmodSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashOperatorPassword } from '@treeagent/server';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../main.js';
import type { Output } from '../output.js';
import { capture } from '../test-support/capture.js';
import { startServe } from './serve.js';

const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const tree = join(scratch, 'tree.json');
writeFileSync(
  tree,
  JSON.stringify({
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, parent: 1, type: 'agent', isPrimary: true },
    ],
  }),
);

/** Runs `treeagent serve <tree> …args` and returns the exit code and what it printed on stderr. */
async function serveWith(...args: string[]): Promise<{ code: number; errors: string }> {
  const errors: string[] = [];
  const out: Output = { log: () => undefined, write: () => undefined, error: (line) => errors.push(line) };
  const code = await main(['serve', tree, '--port', '0', '--data', join(scratch, 'data'), ...args], out);
  return { code, errors: errors.join('\n') };
}

describe('treeagent serve refuses an unsafe or broken configuration, naming the flag and the fix', () => {
  it('on a non-loopback address without API keys, unless --public says so', async () => {
    const { code, errors } = await serveWith('--host', '0.0.0.0');
    expect(code).toBe(2);
    expect(errors).toMatch(/without an API key/);
    expect(errors).toMatch(/--api-key-file <file>/);
    expect(errors).toMatch(/--public/);
  });

  it('the editor without operators: only admins may edit on a server', async () => {
    const { code, errors } = await serveWith('--editor');
    expect(code).toBe(2);
    expect(errors).toMatch(/--editor needs --operators <file>/);
  });

  it('an operators file or an API key file other users can read', async () => {
    const operators = join(scratch, 'operators.json');
    writeFileSync(operators, JSON.stringify({ operators: [] }));
    chmodSync(operators, 0o644);
    let result = await serveWith('--operators', operators);
    expect(result.code).toBe(2);
    expect(result.errors).toContain(`--operators ${operators} can be read by other users`);
    expect(result.errors).toContain(`chmod 600 ${operators}`);

    const keys = join(scratch, 'keys');
    writeFileSync(keys, 'sk-0123456789abcdef0123\n');
    chmodSync(keys, 0o640);
    result = await serveWith('--api-key-file', keys);
    expect(result.code).toBe(2);
    expect(result.errors).toContain(`chmod 600 ${keys}`);
  });

  it('a channels file with a world-readable or missing secret', async () => {
    const secret = join(scratch, 'telegram.secret');
    writeFileSync(secret, 'hook_secret');
    chmodSync(secret, 0o644);
    const channels = join(scratch, 'channels.json');
    writeFileSync(
      channels,
      JSON.stringify({
        channels: [
          {
            platform: 'telegram',
            token: { env: 'TREEAGENT_TEST_TG_TOKEN' },
            secretToken: { file: 'telegram.secret' },
          },
        ],
      }),
    );
    let result = await serveWith('--channels', channels);
    expect(result.code).toBe(2);
    expect(result.errors).toMatch(/TREEAGENT_TEST_TG_TOKEN is not set/);
    process.env.TREEAGENT_TEST_TG_TOKEN = '123456:abc';
    try {
      result = await serveWith('--channels', channels);
      expect(result.code).toBe(2);
      expect(result.errors).toContain(`chmod 600 ${secret}`);
    } finally {
      delete process.env.TREEAGENT_TEST_TG_TOKEN;
    }
  });

  it('the widget with a channels file that turns the web chat off', async () => {
    const secret = join(scratch, 'telegram-only.secret');
    writeFileSync(secret, 'hook_secret');
    chmodSync(secret, 0o600);
    const channels = join(scratch, 'channels-no-web-chat.json');
    const telegram = {
      platform: 'telegram',
      token: { env: 'TREEAGENT_TEST_TG_TOKEN' },
      secretToken: { file: 'telegram-only.secret' },
    };
    writeFileSync(channels, JSON.stringify({ webChat: false, channels: [telegram] }));
    process.env.TREEAGENT_TEST_TG_TOKEN = '123456:abc';
    try {
      const result = await serveWith('--channels', channels, '--widget-origin', 'https://shop.example');
      expect(result.code).toBe(2);
      expect(result.errors).toContain(
        `--widget-origin needs the web chat, which ${channels} turns off ("webChat": false)`,
      );
    } finally {
      delete process.env.TREEAGENT_TEST_TG_TOKEN;
    }
  });

  it('short API keys, an editor nobody may use, a database URL that is not PostgreSQL', async () => {
    expect((await serveWith('--api-key', 'secret')).errors).toMatch(/at least 16 random/);

    const operators = join(scratch, 'no-admin.json');
    const passwordHash = await hashOperatorPassword('a long enough password');
    writeFileSync(
      operators,
      JSON.stringify({ operators: [{ id: 'bruno', name: 'Bruno', role: 'operator', passwordHash }] }),
    );
    chmodSync(operators, 0o600);
    const noAdmin = await serveWith('--operators', operators, '--editor');
    expect(noAdmin.code).toBe(2);
    expect(noAdmin.errors).toMatch(/no operator with role "admin"/);

    const proxy = await serveWith('--trust-proxy', '10.0.0.1', 'proxy.local');
    expect(proxy.code).toBe(2);
    expect(proxy.errors).toMatch(/--trust-proxy: "proxy.local" is not an IP address or a CIDR range/);
    const header = await serveWith('--trust-proxy', '10.0.0.1', '--trust-proxy-header', 'x-real-ip');
    expect(header.code).toBe(2);
    expect(header.errors).toMatch(/--trust-proxy-header x-real-ip: write x-forwarded-for .* or forwarded/);

    const limit = await serveWith('--message-limit', 'ten');
    expect(limit.code).toBe(2);
    expect(limit.errors).toMatch(/--message-limit ten is not a whole number: write e.g. --message-limit 30/);
    const length = await serveWith('--max-message-length', '0');
    expect(length.code).toBe(2);
    expect(length.errors).toMatch(/--max-message-length 0 is not a whole number of at least 1/);

    const streams = await serveWith('--stream-limits', 'session=4,tabs=2');
    expect(streams.code).toBe(2);
    expect(streams.errors).toMatch(
      /--stream-limits: "tabs=2" is not one of session, operator, address, process, idle-ms/,
    );

    const origin = await serveWith('--widget-origin', 'https://shop.example.com/page');
    expect(origin.code).toBe(2);
    expect(origin.errors).toMatch(/--widget-origin https:\/\/shop.example.com\/page is not an origin/);
    const secretAlone = await serveWith('--widget-secret-file', join(scratch, 'widget-secret'));
    expect(secretAlone.code).toBe(2);
    expect(secretAlone.errors).toMatch(/--widget-secret-file needs --widget-origin/);
    const localeAlone = await serveWith('--widget-locale', 'it');
    expect(localeAlone.code).toBe(2);
    expect(localeAlone.errors).toMatch(/--widget-locale needs --widget-origin/);
    const keylessAlone = await serveWith('--widget-without-api-key');
    expect(keylessAlone.code).toBe(2);
    expect(keylessAlone.errors).toMatch(/--widget-without-api-key needs --widget-origin/);

    const mysql = await serveWith('--database-url', 'mysql://db/shop');
    expect(mysql.code).toBe(2);
    expect(mysql.errors).toMatch(/--database-url .* must be a PostgreSQL URL: postgres:\/\//);
  });
});

describe('treeagent serve message limits', () => {
  it('--message-limit, --address-message-limit, --max-message-length, --stream-limits and --assistant-name reach the served app', async () => {
    const dir = mkdtempSync(join(scratch, 'limits-'));
    const out: Output = { log: () => undefined, write: () => undefined, error: () => undefined };
    const server = await startServe(
      tree,
      {
        port: '0',
        data: join(dir, 'data'),
        messageLimit: '2',
        addressMessageLimit: '3',
        maxMessageLength: '20',
        streamLimits: 'session=1',
        assistantName: 'Ciclofficina Rossi',
      },
      out,
    );
    try {
      // --assistant-name reaches the chat page's settings.
      expect(await (await fetch(`${server.url}/web-settings.json`)).json()).toEqual({
        view: 'customer',
        assistantName: 'Ciclofficina Rossi',
      });
      const session = async () =>
        (await (await fetch(`${server.url}/api/v1/sessions`, { method: 'POST' })).json()) as {
          sessionId: string;
          token: string;
        };
      const say = async ({ sessionId, token }: { sessionId: string; token: string }, message = 'hi') =>
        fetch(`${server.url}/api/v1/sessions/${sessionId}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-session-token': token },
          body: JSON.stringify({ message }),
        });
      const first = await session();
      const long = await say(first, 'x'.repeat(21));
      expect(long.status).toBe(413);
      expect(((await long.json()) as { error: { message: string } }).error.message).toMatch(
        /the limit is 20/,
      );
      expect((await say(first)).status).toBe(200);
      const third = await say(first);
      expect(third.status).toBe(429);
      expect(((await third.json()) as { error: { message: string } }).error.message).toMatch(
        /at most 2 per minute/,
      );
      // The address already sent 3 (the refused ones count): a new session is refused too.
      const other = await say(await session());
      expect(other.status).toBe(429);
      expect(other.headers.get('retry-after')).toMatch(/^\d+$/);

      // --stream-limits session=1: a second event stream on the same session is refused.
      const events = () =>
        fetch(`${server.url}/api/v1/sessions/${first.sessionId}/events`, {
          headers: { 'x-session-token': first.token },
        });
      const stream = await events();
      expect(stream.status).toBe(200);
      const second = await events();
      expect(second.status).toBe(429);
      expect(((await second.json()) as { error: { message: string } }).error.message).toMatch(
        /Too many event streams: at most 1 per session, and they are open/,
      );
      await stream.body!.cancel();
    } finally {
      await server.close();
    }
  });
});

describe('treeagent serve --operators: the file is reloaded when it changes', () => {
  it('a removed operator is logged out at once (login, cookie, stream), a demoted admin loses the editor; an invalid file keeps the previous operators', async () => {
    const dir = mkdtempSync(join(scratch, 'operators-'));
    const file = join(dir, 'operators.json');
    const password = 'operators-password-1';
    const passwordHash = await hashOperatorPassword(password);
    const write = (operators: { id: string; role: string }[], rename = false) => {
      const text = JSON.stringify({
        operators: operators.map(({ id, role }) => ({ id, name: id, role, passwordHash })),
      });
      const target = rename ? join(dir, 'operators.next') : file;
      writeFileSync(target, text, { mode: 0o600 });
      if (rename) renameSync(target, file);
    };
    write([
      { id: 'anna', role: 'admin' },
      { id: 'bruno', role: 'operator' },
    ]);
    const lines: string[] = [];
    const out: Output = {
      log: (line) => lines.push(line),
      write: () => undefined,
      error: (line) => lines.push(line),
    };
    const server = await startServe(
      tree,
      { port: '0', data: join(dir, 'data'), operators: file, editor: true },
      out,
    );
    const login = async (id: string) => {
      const response = await fetch(`${server.url}/api/v1/operator/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: id, password }),
      });
      const cookie = /treeagent_operator=([^;]+)/.exec(response.headers.get('set-cookie') ?? '');
      return { status: response.status, token: cookie?.[1] ?? '' };
    };
    const get = async (token: string, path: string) =>
      (await fetch(`${server.url}${path}`, { headers: { 'x-operator-token': token } })).status;
    try {
      const anna = (await login('anna')).token;
      const bruno = (await login('bruno')).token;
      expect(await get(anna, '/api/v1/editor')).toBe(200);
      expect(await get(bruno, '/api/v1/operator/me')).toBe(200);
      const stream = await fetch(`${server.url}/api/v1/operator/events`, {
        headers: { 'x-operator-token': bruno },
      });
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      let streamText = '';
      const ended = (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return streamText;
          streamText += new TextDecoder().decode(value);
        }
      })();

      // bruno removed, anna demoted, carla the new admin: applied without a restart.
      write(
        [
          { id: 'anna', role: 'operator' },
          { id: 'carla', role: 'admin' },
        ],
        true,
      );
      await expect.poll(() => get(bruno, '/api/v1/operator/me'), { timeout: 5000 }).toBe(401);
      expect(await ended).toContain(': closed: operator removed or changed');
      expect((await login('bruno')).status).toBe(401);
      expect(await get(anna, '/api/v1/editor')).toBe(403);
      expect(await get(anna, '/api/v1/operator/me')).toBe(200);
      const carla = (await login('carla')).token;
      expect(await get(carla, '/api/v1/editor')).toBe(200);
      expect(lines.join('\n')).toMatch(
        /Reloaded the operators from .*: 2 \(1 admin\); 1 removed and 1 changed/,
      );

      // A broken file changes nothing: the previous operators stay, and the log says why.
      writeFileSync(file, '{ "operators": [', { mode: 0o600 });
      await expect
        .poll(() => lines.join('\n'), { timeout: 5000 })
        .toMatch(/cannot be used, so the previous operators stay until it is fixed:\n.*not valid JSON/);
      expect(await get(carla, '/api/v1/editor')).toBe(200);
      expect((await login('carla')).status).toBe(200);

      // bruno back with the same password: his old login stays ended.
      write([
        { id: 'anna', role: 'operator' },
        { id: 'bruno', role: 'operator' },
        { id: 'carla', role: 'admin' },
      ]);
      await expect.poll(async () => (await login('bruno')).status, { timeout: 5000 }).toBe(200);
      expect(await get(bruno, '/api/v1/operator/me')).toBe(401);
    } finally {
      await server.close();
    }
  });
});

describe('treeagent serve --watch', () => {
  it('reloads the tree when its file changes (also when replaced by a rename), keeping the session', async () => {
    const dir = mkdtempSync(join(scratch, 'watch-'));
    const file = join(dir, 'shop.json');
    const document = (answer: string) =>
      `${JSON.stringify({
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, parent: 1, type: 'agent', isPrimary: true },
          {
            id: 3,
            parent: 2,
            type: 'emit',
            chunks: ['shipping'],
            emit: { message: { type: 'static', content: answer } },
          },
        ],
      })}\n`;
    writeFileSync(file, document('Shipping is 7.90.'));
    const out = capture();
    const lines = out.lines;
    const server = await startServe(file, { port: '0', data: join(dir, 'data'), watch: true }, out);
    try {
      expect(lines.join('\n')).toContain('Hot reload: on (--watch)');
      const { sessionId, token } = (await (
        await fetch(`${server.url}/api/v1/sessions`, { method: 'POST' })
      ).json()) as {
        sessionId: string;
        token: string;
      };
      const say = async () => {
        const response = await fetch(`${server.url}/api/v1/sessions/${sessionId}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-session-token': token },
          body: JSON.stringify({ message: 'shipping' }),
        });
        return ((await response.json()) as { messages: { content: string }[] }).messages[0]!.content;
      };
      const until = async (expected: string) => {
        for (let attempt = 0; attempt < 100; attempt++) {
          if ((await say()) === expected) return expected;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return say();
      };
      expect(await say()).toBe('Shipping is 7.90.');
      writeFileSync(file, document('Shipping is 5.90.'));
      expect(await until('Shipping is 5.90.')).toBe('Shipping is 5.90.');
      writeFileSync(`${file}.next`, document('Shipping is free.'));
      renameSync(`${file}.next`, file);
      expect(await until('Shipping is free.')).toBe('Shipping is free.');
      expect(server.reloads).toBeGreaterThanOrEqual(2);
      expect(readFileSync(file, 'utf8')).toContain('free');
    } finally {
      await server.close();
    }
    expect(lines.join('\n')).toMatch(/Stopped: \d+ turns? finished/);
  });
});
