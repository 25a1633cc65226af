import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakePlatformSend } from '@treeagent/core/conformance';

/** What a fake Graph API answers. */
export interface FakeAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * The plumbing of a local fake of Meta's Graph API on loopback, for tests (never a product path): the
 * HTTP server, the bearer token check, uploaded and downloadable media (`/media-bytes/<id>`), what was
 * received, and sends made to fail with a status (and `Retry-After`). WhatsApp's and Messenger's fakes
 * add their own routes (`route`).
 */
export abstract class FakeGraphApi {
  readonly accessToken = 'EAAG-test-token';
  readonly appSecret = 'meta-app-secret';
  readonly verifyToken = 'verify-me';
  readonly received: (FakePlatformSend & { raw: Record<string, unknown> })[] = [];
  readonly media = new Map<string, { data: Uint8Array; name: string; mimeType: string }>();
  /** The answers of the next sends: a failure, or `null` to let one through. */
  readonly #failures: ({ status: number; retryAfter?: number } | null)[] = [];
  readonly #server: Server;
  root = '';

  protected constructor() {
    this.#server = createServer((request, response) => {
      this.#handle(request)
        .then(({ status, body, headers = {} }) => {
          const binary = body instanceof Uint8Array;
          response.writeHead(status, {
            'Content-Type': binary ? 'application/octet-stream' : 'application/json',
            ...headers,
          });
          response.end(binary ? body : JSON.stringify(body));
        })
        .catch((error) => {
          response.writeHead(500, { 'Content-Type': 'application/json' });
          response.end(JSON.stringify({ error: { message: String(error) } }));
        });
    });
  }

  /** Listens on a free loopback port. */
  protected async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.root = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  failNext(status: number, retryAfter?: number): void {
    this.#failures.push({ status, ...(retryAfter === undefined ? {} : { retryAfter }) });
  }

  /** Lets `nth - 1` sends through and answers the `nth` with `status` (1: the next send). */
  failSend(nth: number, status: number): void {
    this.#failures.push(...Array.from({ length: nth - 1 }, () => null), { status });
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** The answer to a send when one was asked to fail (`failNext`), else `null`. */
  protected failure(): FakeAnswer | null {
    const failure = this.#failures.shift();
    if (!failure) return null;
    return {
      status: failure.status,
      body: { error: { message: `Error ${failure.status}`, code: failure.status === 429 ? 130429 : 1 } },
      ...(failure.retryAfter === undefined ? {} : { headers: { 'Retry-After': String(failure.retryAfter) } }),
    };
  }

  /** Reads a multipart body's fields. */
  protected form(request: IncomingMessage, body: Buffer): Promise<FormData> {
    return new Request('http://fake/', {
      method: 'POST',
      headers: { 'content-type': request.headers['content-type']! },
      body,
    }).formData();
  }

  /** Keeps an uploaded file; its id. */
  protected async keep(file: File): Promise<string> {
    const id = `up-${this.media.size + 1}`;
    this.media.set(id, {
      data: new Uint8Array(await file.arrayBuffer()),
      name: file.name,
      mimeType: file.type,
    });
    return id;
  }

  /** The platform's own routes, under the version prefix (`/v21.0` taken off `path`). */
  protected abstract route(request: IncomingMessage, path: string, body: Buffer): Promise<FakeAnswer>;

  async #handle(request: IncomingMessage): Promise<FakeAnswer> {
    const url = new URL(request.url ?? '/', this.root);
    const bytes = /^\/media-bytes\/([^/]+)/.exec(url.pathname);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (bytes) {
      const media = this.media.get(bytes[1]!);
      return media ? { status: 200, body: media.data } : { status: 404, body: {} };
    }
    if (request.headers.authorization !== `Bearer ${this.accessToken}`)
      return { status: 401, body: { error: { message: 'Invalid OAuth access token' } } };
    return this.route(request, url.pathname.replace(/^\/v[\d.]+/, ''), Buffer.concat(chunks));
  }
}
