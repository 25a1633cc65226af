import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakePlatformSend } from '@treeagent/core/conformance';
import { signMetaBody } from '../meta/meta-signature.js';

/**
 * A local fake of WhatsApp's Cloud API (Graph API) on loopback, for tests (never a product path):
 * `/<phone>/messages`, `/<phone>/media` uploads, media lookups and downloads; what it received is
 * kept, and the next message sends can be made to fail with a status (and `Retry-After`).
 */
export class FakeWhatsApp {
  readonly phoneNumberId = '1098765';
  readonly accessToken = 'EAAG-test-token';
  readonly appSecret = 'meta-app-secret';
  readonly verifyToken = 'verify-me';
  readonly received: (FakePlatformSend & { raw: Record<string, unknown> })[] = [];
  readonly media = new Map<string, { data: Uint8Array; name: string; mimeType: string }>();
  readonly #failures: { status: number; retryAfter?: number }[] = [];
  readonly #server: Server;
  root = '';

  private constructor() {
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

  static async start(): Promise<FakeWhatsApp> {
    const fake = new FakeWhatsApp();
    await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve));
    fake.root = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  failNext(status: number, retryAfter?: number): void {
    this.#failures.push({ status, ...(retryAfter === undefined ? {} : { retryAfter }) });
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(
    request: IncomingMessage,
  ): Promise<{ status: number; body: unknown; headers?: Record<string, string> }> {
    if (request.headers.authorization !== `Bearer ${this.accessToken}`)
      return { status: 401, body: { error: { message: 'Invalid OAuth access token' } } };
    const url = new URL(request.url ?? '/', this.root);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const bytes = /^\/media-bytes\/(.+)$/.exec(url.pathname);
    if (bytes) {
      const media = this.media.get(bytes[1]!);
      return media ? { status: 200, body: media.data } : { status: 404, body: {} };
    }
    const path = url.pathname.replace(/^\/v[\d.]+/, '');
    if (request.method === 'GET') {
      const id = path.slice(1);
      return this.media.has(id)
        ? { status: 200, body: { id, url: `${this.root}/media-bytes/${id}` } }
        : { status: 404, body: { error: { message: 'Unknown media' } } };
    }
    if (path === `/${this.phoneNumberId}/media`) {
      const form = await new Request('http://fake/', {
        method: 'POST',
        headers: { 'content-type': request.headers['content-type']! },
        body,
      }).formData();
      const file = form.get('file') as File;
      const id = `up-${this.media.size + 1}`;
      this.media.set(id, {
        data: new Uint8Array(await file.arrayBuffer()),
        name: file.name,
        mimeType: file.type,
      });
      return { status: 200, body: { id } };
    }
    if (path !== `/${this.phoneNumberId}/messages`)
      return { status: 404, body: { error: { message: `no ${path}` } } };
    const failure = this.#failures.shift();
    if (failure)
      return {
        status: failure.status,
        body: { error: { message: `Error ${failure.status}`, code: failure.status === 429 ? 130429 : 1 } },
        ...(failure.retryAfter === undefined
          ? {}
          : { headers: { 'Retry-After': String(failure.retryAfter) } }),
      };
    const message = JSON.parse(body.toString()) as Record<string, any>;
    const conversationId = String(message.to);
    if (message.type === 'text')
      this.received.push({ conversationId, kind: 'text', text: message.text.body, raw: message });
    else if (message.type === 'interactive') {
      const action = message.interactive.action;
      const buttons: string[] = action.buttons
        ? action.buttons.map((button: any) => button.reply.title)
        : action.sections.flatMap((section: any) => section.rows.map((row: any) => row.title));
      this.received.push({
        conversationId,
        kind: 'text',
        text: message.interactive.body.text,
        buttons,
        raw: message,
      });
    } else if (message.type === 'document') {
      const media = this.media.get(message.document.id)!;
      this.received.push({
        conversationId,
        kind: 'file',
        fileName: message.document.filename,
        data: media.data,
        raw: message,
      });
    } else if (message.type === 'template')
      this.received.push({
        conversationId,
        kind: 'text',
        text: `template:${message.template.name}`,
        raw: message,
      });
    return {
      status: 200,
      body: { messaging_product: 'whatsapp', messages: [{ id: `wamid.${this.received.length}` }] },
    };
  }

  /** A signed webhook request carrying one user message (`message` without `from`, `id`, `timestamp`). */
  webhook(
    input: { from: string; id: string; at?: Date; message: Record<string, unknown> },
    signature?: string | null,
  ): Request {
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'WABA-1',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { phone_number_id: this.phoneNumberId },
                contacts: [{ wa_id: input.from, profile: { name: 'Giulia' } }],
                messages: [
                  {
                    from: input.from,
                    id: input.id,
                    timestamp: String(Math.floor((input.at ?? new Date()).getTime() / 1000)),
                    ...input.message,
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    const header = signature === undefined ? signMetaBody(this.appSecret, body) : signature;
    return new Request('http://server/channels/whatsapp/webhook', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(header ? { 'X-Hub-Signature-256': header } : {}) },
      body,
    });
  }
}
