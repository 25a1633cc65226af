import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A delivery the receiver got. */
export interface ReceivedHook {
  headers: IncomingHttpHeaders;
  body: string;
  /** The status it answered. */
  status: number;
}

/**
 * A real HTTP server standing for a helpdesk's webhook endpoint: records each delivery and answers
 * with `answer(delivery number)` (default 204).
 */
export async function webhookReceiver(answer: (index: number) => number = () => 204) {
  const received: ReceivedHook[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const status = answer(received.length);
      received.push({ headers: request.headers, body, status });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    /** The deliveries it accepted, by idempotency key. */
    accepted: () => received.filter((hook) => hook.status < 300),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
