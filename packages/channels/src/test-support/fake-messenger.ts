import type { IncomingMessage } from 'node:http';
import { signMetaBody } from '../meta/meta-signature.js';
import { type FakeAnswer, FakeGraphApi } from './fake-graph-api.js';

/**
 * A local fake of the Messenger Platform's Send API (Graph API `/me/messages`) on loopback, for tests
 * (never a product path): texts, quick replies, button templates, `sender_action`s and multipart file
 * attachments are recorded; files users send are served from `/media-bytes/<id>/<name>`, as Meta's CDN
 * serves them. `object` is `page` (Messenger) or `instagram`. Like Meta, it refuses a send more than
 * 24 hours after the user's last message (the time of the last `webhook` from them, on `clock`) unless
 * it carries the HUMAN_AGENT tag, and that one after 7 days.
 */
export class FakeMessenger extends FakeGraphApi {
  readonly object: 'page' | 'instagram';
  readonly pageId = '104729';
  /** The platform's clock for the messaging windows (a test moves it). */
  clock: () => Date = () => new Date();
  readonly #lastUserAt = new Map<string, number>();

  private constructor(object: 'page' | 'instagram') {
    super();
    this.object = object;
  }

  static async start(object: 'page' | 'instagram' = 'page'): Promise<FakeMessenger> {
    const fake = new FakeMessenger(object);
    await fake.listen();
    return fake;
  }

  protected async route(request: IncomingMessage, path: string, body: Buffer): Promise<FakeAnswer> {
    if (request.method !== 'POST' || path !== '/me/messages')
      return { status: 404, body: { error: { message: `no ${request.method} ${path}` } } };
    const multipart = request.headers['content-type']?.startsWith('multipart/form-data');
    let message: Record<string, any>;
    let file: File | null = null;
    if (multipart) {
      const form = await this.form(request, body);
      message = {
        recipient: JSON.parse(String(form.get('recipient'))),
        message: JSON.parse(String(form.get('message'))),
        ...(form.has('messaging_type') ? { messaging_type: form.get('messaging_type') } : {}),
        ...(form.has('tag') ? { tag: form.get('tag') } : {}),
      };
      file = form.get('filedata') as File;
    } else message = JSON.parse(body.toString());
    const conversationId = String(message.recipient?.id);
    const outside = this.#outsideWindow(conversationId, message);
    if (outside) return outside;
    if (message.sender_action) {
      // Seen and typing are not sends the platform rate-limits: recorded, never failed.
      if (message.sender_action === 'typing_on')
        this.received.push({ conversationId, kind: 'typing', raw: message });
      return { status: 200, body: { recipient_id: conversationId } };
    }
    const failure = this.failure();
    if (failure) return failure;
    const content = message.message ?? {};
    const template = content.attachment?.type === 'template' ? content.attachment.payload : null;
    const linked: string | undefined = template ? undefined : content.attachment?.payload?.url;
    if (file) {
      await this.keep(file);
      this.received.push({
        conversationId,
        kind: 'file',
        fileName: file.name,
        data: new Uint8Array(await file.arrayBuffer()),
        raw: message,
      });
    } else if (linked)
      this.received.push({
        conversationId,
        kind: 'file',
        fileName: decodeURIComponent(new URL(linked).pathname.split('/').pop() ?? ''),
        raw: message,
      });
    else if (template)
      this.received.push({
        conversationId,
        kind: 'text',
        text: template.text,
        buttons: template.buttons.map((button: { title: string }) => button.title),
        raw: message,
      });
    else
      this.received.push({
        conversationId,
        kind: 'text',
        text: content.text,
        ...(content.quick_replies
          ? { buttons: content.quick_replies.map((reply: { title: string }) => reply.title) }
          : {}),
        raw: message,
      });
    return { status: 200, body: { recipient_id: conversationId, message_id: `m_${this.received.length}` } };
  }

  /** Meta's answer to a send outside the messaging windows, or `null` when it may go. */
  #outsideWindow(conversationId: string, message: Record<string, any>): FakeAnswer | null {
    const last = this.#lastUserAt.get(conversationId);
    if (last === undefined) return null;
    const elapsed = this.clock().getTime() - last;
    const day = 24 * 60 * 60 * 1000;
    const humanAgent = message.messaging_type === 'MESSAGE_TAG' && message.tag === 'HUMAN_AGENT';
    if (elapsed < day || (humanAgent && !message.sender_action && elapsed < 7 * day)) return null;
    return {
      status: 400,
      body: {
        error: {
          message: '(#10) This message is sent outside of allowed window.',
          type: 'OAuthException',
          code: 10,
          error_subcode: 2018278,
        },
      },
    };
  }

  /** A file a user sent: served like Meta's CDN, at a URL that ends with its name. */
  upload(id: string, file: { data: Uint8Array; name: string; mimeType: string }): string {
    this.media.set(id, file);
    return `${this.root}/media-bytes/${id}/${encodeURIComponent(file.name)}`;
  }

  /** A signed webhook request with one `messaging` event from `sender` (`event`: `message` or `postback`). */
  webhook(
    input: { sender: string; event: Record<string, unknown>; at?: Date },
    signature?: string | null,
    object: string = this.object,
  ): Request {
    const time = (input.at ?? new Date()).getTime();
    this.#lastUserAt.set(input.sender, time);
    const body = JSON.stringify({
      object,
      entry: [
        {
          id: this.pageId,
          time,
          messaging: [
            { sender: { id: input.sender }, recipient: { id: this.pageId }, timestamp: time, ...input.event },
          ],
        },
      ],
    });
    const header = signature === undefined ? signMetaBody(this.appSecret, body) : signature;
    const name = this.object === 'page' ? 'messenger' : 'instagram';
    return new Request(`http://server/channels/${name}/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(header ? { 'X-Hub-Signature-256': header } : {}) },
      body,
    });
  }
}
