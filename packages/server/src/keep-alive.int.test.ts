import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from './serve.js';
import { memoryLogger, testAgent } from './test-support/fixtures.js';

const KEY = 'sk-keep-alive';

/** One HTTP request on `agent` (keep-alive, one socket): status and body, or the socket error. */
function send(
  agent: Agent,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer },
): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { agent, method: options.method ?? 'GET', headers: options.headers ?? {} },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(parts).toString('utf8'),
            connection: res.headers.connection,
          }),
        );
        res.on('error', reject);
      },
    );
    // The server may answer and close before the whole body is sent: that is the case under test.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' ? undefined : reject(error)));
    if (options.body) req.write(options.body);
    req.end();
  });
}

describe('an early answer does not break the next request on the same keep-alive connection', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve({ agent: testAgent(), port: 0, apiKeys: [KEY], logger: memoryLogger() });
  });
  afterAll(() => server.close());

  const large = Buffer.alloc(2 * 1024 * 1024, 'x');
  const cases: [string, string, Record<string, string>][] = [
    ['413 (too large)', '/api/v1/sessions/x/messages', { Authorization: `Bearer ${KEY}` }],
    ['401 (no API key)', '/api/v1/sessions/x/messages', {}],
    ['404 (no such session)', '/api/v1/sessions/nope/files', { Authorization: `Bearer ${KEY}` }],
  ];
  for (const [name, path, headers] of cases) {
    it(`after ${name} with a 2 MiB body`, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let round = 0; round < 3; round++) {
          const rejected = await send(agent, `${server.url}${path}`, {
            method: 'POST',
            headers: {
              ...headers,
              'Content-Type': 'application/json',
              'Content-Length': String(large.length),
            },
            body: large,
          });
          expect(rejected.status).toBeGreaterThanOrEqual(400);
          expect(rejected.connection).toBe('close');
          const next = await send(agent, `${server.url}/health`, {});
          expect(next.status).toBe(200);
        }
      } finally {
        agent.destroy();
      }
    });
  }
});
