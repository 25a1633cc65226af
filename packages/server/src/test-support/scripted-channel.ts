import type {
  Channel,
  ChannelCapabilities,
  ChannelConversation,
  ChannelReceiveContext,
  ChannelRequest,
  ChannelSend,
  ChannelSendError,
} from '@treeagent/core/adapter';

/**
 * A mock channel (labelled: for the server's unit tests of the seam, not a platform): a webhook body
 * is `{ id, chat, user, text, option? }` with the header `X-Test-Secret: right`; what it sends is kept
 * in `sent`, and `fail` makes the next sends throw what a platform's refusal would.
 */
export class ScriptedChannel implements Channel {
  readonly platform = 'scripted';
  readonly capabilities: ChannelCapabilities = {
    buttons: { max: 3, labelLength: 20 },
    textLength: 4096,
    files: { receive: true, send: true },
    typing: true,
  };
  readonly sent: { conversation: ChannelConversation; message: ChannelSend }[] = [];
  readonly failures: ChannelSendError[] = [];

  constructor(readonly name = 'scripted') {}

  /** Files read through the server's `ChannelReceiveContext` (a body `{ readFile: id }`). */
  readonly read = new Map<string, Uint8Array>();

  async receive(request: Request, context?: ChannelReceiveContext): Promise<ChannelRequest> {
    if (request.headers.get('x-test-secret') !== 'right')
      return { kind: 'rejected', reason: 'wrong X-Test-Secret' };
    const body = (await request.json()) as {
      id: string;
      chat: string;
      user: string;
      text?: string;
      option?: string;
      readFile?: string;
    };
    if (body.readFile !== undefined) {
      if (!context) return { kind: 'answer', response: new Response('no context', { status: 500 }) };
      this.read.set(body.readFile, await context.readFile(body.readFile));
      return { kind: 'answer', response: new Response(null, { status: 204 }) };
    }
    return {
      kind: 'messages',
      messages: [
        {
          messageId: body.id,
          conversation: { channel: this.name, conversationId: body.chat, userId: body.user },
          text: body.text ?? '',
          selectedOption: body.option ?? null,
          attachments: [],
        },
      ],
    };
  }

  async send(conversation: ChannelConversation, message: ChannelSend): Promise<void> {
    if (message.type === 'typing') return;
    const failure = this.failures.shift();
    if (failure) throw failure;
    this.sent.push({ conversation, message });
  }

  /** The texts sent so far. */
  texts(): string[] {
    return this.sent.flatMap(({ message }) =>
      message.type === 'text' || message.type === 'notice' ? [message.text] : [],
    );
  }
}

/** A webhook request of the scripted channel. */
export function scriptedUpdate(
  body: { id: string; chat: string; user: string; text?: string; option?: string },
  secret = 'right',
): RequestInit {
  return {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Test-Secret': secret },
    body: JSON.stringify(body),
  };
}
