import { describe, expect, test } from 'vitest';
import { type RecordedExchange, startReplayServer } from './replay-server.js';

const exchange: RecordedExchange = {
  request: { method: 'POST', path: '/collections/c/points/scroll', body: { limit: 2, with_payload: true } },
  response: {
    status: 200,
    body: { result: { points: [], next_page_offset: null }, status: 'ok', time: 0.001 },
  },
};

async function post(url: string, body: unknown) {
  const response = await fetch(`${url}/collections/c/points/scroll`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('replay server', () => {
  test('answers a matching request with the recorded response (key order does not matter)', async () => {
    const server = await startReplayServer([exchange]);
    try {
      expect(await post(server.url, { with_payload: true, limit: 2 })).toEqual(exchange.response);
      expect(server.received).toEqual([
        { method: 'POST', url: '/collections/c/points/scroll', body: { with_payload: true, limit: 2 } },
      ]);
    } finally {
      await server.close();
    }
    server.verify();
  });

  test('a different body is a mismatch: HTTP 599 and verify() throws', async () => {
    const server = await startReplayServer([exchange]);
    try {
      const answer = await post(server.url, { limit: 3, with_payload: true });
      expect(answer.status).toBe(599);
      expect(answer.body.status.error).toContain('replay mismatch');
    } finally {
      await server.close();
    }
    expect(() => server.verify()).toThrow(/body \{"limit":3,"with_payload":true\} differs from the recorded/);
  });

  test('exchanges never requested make verify() throw', async () => {
    const server = await startReplayServer([exchange]);
    await server.close();
    expect(server.pending()).toHaveLength(1);
    expect(() => server.verify()).toThrow(/1 recorded exchange\(s\) never requested/);
  });
});
