import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from '../serve.js';
import { memoryLogger, testAgent } from '../test-support/fixtures.js';

// A real HAProxy from Debian on loopback in front of a real served app. Two clients reach the proxy
// from different loopback addresses (127.0.0.2 and 127.0.0.3); the app sees only the proxy's
// 127.0.0.1 and trusts it (`trustProxy`).
const HAPROXY = '/usr/sbin/haproxy';
const KEY = 'sk-trust-proxy-key-0001';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, proxy: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (proxy.exitCode !== null) throw new Error(`haproxy exited (${proxy.exitCode}):\n${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
      socket.connect(port, '127.0.0.1');
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`haproxy did not listen on ${port} within 10 s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A GET through the proxy from `localAddress`, with a right or wrong API key. */
function get(
  port: number,
  localAddress: string,
  key: string,
  headers: Record<string, string> = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/v1/tree?limit=1',
        localAddress,
        agent: false,
        headers: { Authorization: `Bearer ${key}`, ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('--trust-proxy behind a real HAProxy', () => {
  let server: RunningServer;
  let proxy: ChildProcess;
  let proxyPort: number;
  let directory: string;

  beforeAll(async () => {
    if (!existsSync(HAPROXY)) {
      throw new Error(
        `${HAPROXY} is missing: this test runs a real reverse proxy. Install it with "apt-get install -y haproxy" (scripts/test-all.sh, which CI runs, does).`,
      );
    }
    server = await serve({
      agent: testAgent(),
      port: 0,
      apiKeys: [KEY],
      logger: memoryLogger(),
      authFailureLimit: { windowMs: 60_000, max: 5 },
      trustProxy: ['127.0.0.1'],
    });
    proxyPort = await freePort();
    directory = mkdtempSync(join(tmpdir(), 'treeagent-haproxy-'));
    const config = join(directory, 'haproxy.cfg');
    writeFileSync(
      config,
      [
        'global',
        '  maxconn 200',
        'defaults',
        '  mode http',
        '  timeout connect 5s',
        '  timeout client 30s',
        '  timeout server 30s',
        'frontend web',
        `  bind 127.0.0.1:${proxyPort}`,
        '  option forwardfor',
        '  default_backend app',
        'backend app',
        `  server app 127.0.0.1:${server.port}`,
        '',
      ].join('\n'),
    );
    let output = '';
    proxy = spawn(HAPROXY, ['-f', config, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
    proxy.stdout!.on('data', (part) => (output += part));
    proxy.stderr!.on('data', (part) => (output += part));
    await waitForPort(proxyPort, proxy, () => output);
  }, 30_000);

  afterAll(async () => {
    if (proxy && proxy.exitCode === null) {
      const exited = new Promise((resolve) => proxy.once('exit', resolve));
      proxy.kill('SIGTERM');
      await exited;
    }
    await server?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it('one client exhausts the failed-authentication limit; the other still gets through', async () => {
    for (let i = 0; i < 5; i++) expect(await get(proxyPort, '127.0.0.2', 'sk-wrong-key-0000')).toBe(401);
    expect(await get(proxyPort, '127.0.0.2', KEY)).toBe(429);
    // Writing another address into X-Forwarded-For does not help: the proxy appends the real one.
    expect(await get(proxyPort, '127.0.0.2', KEY, { 'X-Forwarded-For': '127.0.0.3' })).toBe(429);
    // The other client behind the same proxy is not locked out.
    expect(await get(proxyPort, '127.0.0.3', KEY)).toBe(200);
    expect(await get(proxyPort, '127.0.0.3', 'sk-wrong-key-0000')).toBe(401);
  });
});
