import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a fake platform answers: JSON (or bytes, for a file download), with headers. */
export interface FakeAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A running fake on loopback. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

/**
 * Starts an HTTP server on 127.0.0.1 and a free port that answers every request with `handle`
 * (bytes as `application/octet-stream`, anything else as JSON; a thrown error is a 500): the
 * scaffolding of the platforms' fakes.
 */
export async function startLoopbackServer(
  handle: (request: IncomingMessage, body: Buffer) => Promise<FakeAnswer>,
): Promise<LoopbackServer> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      handle(request, Buffer.concat(chunks))
        .then(({ status, body, headers }) => {
          const bytes = body instanceof Uint8Array;
          response.writeHead(status, {
            'Content-Type': bytes ? 'application/octet-stream' : 'application/json',
            ...headers,
          });
          response.end(bytes ? body : JSON.stringify(body));
        })
        .catch((error) => {
          response.writeHead(500, { 'Content-Type': 'application/json' });
          response.end(JSON.stringify({ ok: false, error: String(error) }));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
