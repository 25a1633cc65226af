import type { IncomingMessage } from 'node:http';
import { signMetaBody } from '../meta/meta-signature.js';
import { type FakeAnswer, FakeGraphApi } from './fake-graph-api.js';

/**
 * A local fake of WhatsApp's Cloud API (Graph API) on loopback, for tests (never a product path):
 * `/<phone>/messages` (with read receipts and the typing indicator), `/<phone>/media` uploads, media
 * lookups and downloads (`FakeGraphApi`: what it received, failures on demand).
 */
export class FakeWhatsApp extends FakeGraphApi {
  readonly phoneNumberId = '1098765';

  static async start(): Promise<FakeWhatsApp> {
    const fake = new FakeWhatsApp();
    await fake.listen();
    return fake;
  }

  protected async route(request: IncomingMessage, path: string, body: Buffer): Promise<FakeAnswer> {
    if (request.method === 'GET') {
      const id = path.slice(1);
      return this.media.has(id)
        ? {
            status: 200,
            body: {
              id,
              url: `${this.root}/media-bytes/${id}`,
              file_size: this.media.get(id)!.data.byteLength,
            },
          }
        : { status: 404, body: { error: { message: 'Unknown media' } } };
    }
    if (path === `/${this.phoneNumberId}/media`)
      return {
        status: 200,
        body: { id: await this.keep((await this.form(request, body)).get('file') as File) },
      };
    if (path !== `/${this.phoneNumberId}/messages`)
      return { status: 404, body: { error: { message: `no ${path}` } } };
    const message = JSON.parse(body.toString()) as Record<string, any>;
    const conversationId = String(message.to);
    // A read receipt (with the typing indicator) names the user's message, not the number; it is
    // recorded, never failed.
    if (message.status === 'read') {
      this.received.push({
        conversationId: '',
        kind: 'typing',
        text: `read:${message.message_id}`,
        raw: message,
      });
      return { status: 200, body: { success: true } };
    }
    const failure = this.failure();
    if (failure) return failure;
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
      const caption: string | undefined = message.document.caption;
      // WhatsApp's limit on a media caption (1,024 characters): error 131009, a parameter value not valid.
      if (caption !== undefined && caption.length > 1024)
        return {
          status: 400,
          body: {
            error: {
              message: '(#131009) Parameter value is not valid',
              type: 'OAuthException',
              code: 131009,
            },
          },
        };
      this.received.push({
        conversationId,
        kind: 'file',
        fileName: message.document.filename,
        data: media.data,
        ...(caption === undefined ? {} : { caption }),
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
    const body = this.change({
      contacts: [{ wa_id: input.from, profile: { name: 'Giulia' } }],
      messages: [
        {
          from: input.from,
          id: input.id,
          timestamp: String(Math.floor((input.at ?? new Date()).getTime() / 1000)),
          ...input.message,
        },
      ],
    });
    return this.post(body, signature);
  }

  /** The JSON body of a webhook with one `messages` change (`value`: its messages, statuses…) for a phone number. */
  change(value: Record<string, unknown>, phoneNumberId = this.phoneNumberId): string {
    return JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'WABA-1',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { phone_number_id: phoneNumberId },
                ...value,
              },
            },
          ],
        },
      ],
    });
  }

  /** A webhook request with `body` (a JSON text), signed as Meta signs it unless `signature` is given. */
  post(body: string, signature?: string | null): Request {
    const header = signature === undefined ? signMetaBody(this.appSecret, body) : signature;
    return new Request('http://server/channels/whatsapp/webhook', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(header ? { 'X-Hub-Signature-256': header } : {}) },
      body,
    });
  }
}
