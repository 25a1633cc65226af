import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';

/** One HTTP request to Qdrant and the response it gets, as stored in a recording. */
export interface RecordedExchange {
  /** What this step is, for people reading the recording. */
  note?: string;
  request: {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
    /** Path without the query string, e.g. `/collections/treeagent_c/points`. */
    path: string;
    /** Query-string parameters, e.g. `{ "wait": "true" }`; absent means none. */
    query?: Record<string, string>;
    /** Headers the request must carry (a subset; names in lowercase). */
    headers?: Record<string, string>;
    /** The JSON body; absent means no body. Compared structurally (key order does not matter). */
    body?: unknown;
  };
  response: {
    status: number;
    /** JSON body (Qdrant's envelope `{ result, status: "ok", time }` or `{ status: { error }, time }`). */
    body?: unknown;
  };
}

/** A recording: a sequence of exchanges replayed in order. */
export interface Recording {
  /** What the recording is of. */
  description: string;
  /** Where the request and response shapes come from. */
  sources?: string[];
  exchanges: RecordedExchange[];
}

export interface ReplayServer {
  /** Base URL to give the Qdrant client, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Every request received, in order (method, path with query, parsed body). */
  received: { method: string; url: string; body: unknown }[];
  /** Requests that did not match the recording, described. */
  mismatches: string[];
  /** Exchanges not requested yet. */
  pending(): RecordedExchange[];
  /** Throws when a request did not match, or when recorded exchanges were never requested. */
  verify(): void;
  close(): Promise<void>;
}

/**
 * A loopback HTTP server that replays recorded Qdrant exchanges in order. Each request must match
 * the next recorded one (method, path, query, required headers and JSON body); then the recorded
 * response is sent. A request that does not match gets HTTP 599 with a Qdrant-style error
 * describing the difference, and is listed in `mismatches`, so a change in what the client sends
 * fails the test even when the code under test swallows the error.
 */
export async function startReplayServer(recording: Recording | RecordedExchange[]): Promise<ReplayServer> {
  const exchanges = Array.isArray(recording) ? recording : recording.exchanges;
  const received: ReplayServer['received'] = [];
  const mismatches: string[] = [];
  let next = 0;
  const server: Server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const text = await readBody(request);
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const url = new URL(request.url ?? '/', 'http://replay');
    received.push({ method: request.method ?? '', url: `${url.pathname}${url.search}`, body });
    const expected = exchanges[next];
    const problem = expected
      ? difference(expected, request, url, body)
      : 'no more recorded exchanges (the recording ended)';
    if (problem) {
      const message = `request #${received.length} ${request.method} ${url.pathname}${url.search}: ${problem}`;
      mismatches.push(message);
      return send(response, 599, { status: { error: `replay mismatch: ${message}` }, time: 0 });
    }
    next++;
    send(response, expected!.response.status, expected!.response.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    mismatches,
    pending: () => exchanges.slice(next),
    verify() {
      const problems = [...mismatches];
      const left = exchanges.slice(next);
      if (left.length) {
        problems.push(
          `${left.length} recorded exchange(s) never requested, starting with ${left[0]!.request.method} ${left[0]!.request.path}${left[0]!.note ? ` (${left[0]!.note})` : ''}`,
        );
      }
      if (problems.length) throw new Error(`Replay failed:\n- ${problems.join('\n- ')}`);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Reads a recording stored as JSON under `src/test-support/recordings/`, e.g. `conformance/scroll.json`. */
export function loadRecording(name: string): Recording {
  const file = new URL(`./recordings/${name}`, import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')) as Recording;
}

function difference(
  expected: RecordedExchange,
  request: IncomingMessage,
  url: URL,
  body: unknown,
): string | undefined {
  const want = expected.request;
  const label = expected.note ? ` (expected: ${expected.note})` : '';
  if (request.method !== want.method || url.pathname !== want.path) {
    return `expected ${want.method} ${want.path}${label}`;
  }
  const query = Object.fromEntries(url.searchParams);
  if (!isDeepStrictEqual(query, want.query ?? {})) {
    return `query ${JSON.stringify(query)} differs from the recorded ${JSON.stringify(want.query ?? {})}${label}`;
  }
  for (const [name, value] of Object.entries(want.headers ?? {})) {
    if (request.headers[name] !== value) {
      return `header ${name} is ${JSON.stringify(request.headers[name])}, recorded ${JSON.stringify(value)}${label}`;
    }
  }
  if (!isDeepStrictEqual(body, want.body)) {
    return `body ${JSON.stringify(body)} differs from the recorded ${JSON.stringify(want.body)}${label}`;
  }
  return undefined;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  if (body === undefined) {
    response.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
