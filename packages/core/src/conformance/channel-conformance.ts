import { describe, expect } from 'vitest';
import {
  AttachmentTooLargeError,
  type Channel,
  ChannelSendError,
  type ChannelSendProgress,
  type InboundMessage,
} from '../channel/channel.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/** What the fake platform received from a channel, as the suite reads it. */
export interface FakePlatformSend {
  conversationId: string;
  kind: 'text' | 'file' | 'typing';
  text?: string;
  /** Labels of the native buttons sent with the text. */
  buttons?: string[];
  fileName?: string;
  data?: Uint8Array;
  /** The text sent with the file, on platforms whose fake records it. */
  caption?: string;
}

/** A channel wired to a local fake of its platform's API, and how to play the platform's side. */
export interface ChannelFixture {
  channel: Channel;
  /** The webhook request the platform sends for a user's text message, signed as the platform signs it. */
  userMessage(input: {
    conversationId: string;
    userId: string;
    text: string;
    messageId: string;
  }): Promise<Request>;
  /** The request of a user pressing the button of `option` (sent earlier by the channel). */
  optionChoice(input: {
    conversationId: string;
    userId: string;
    option: string;
    messageId: string;
  }): Promise<Request>;
  /** The request of a user sending a file. */
  userFile(input: {
    conversationId: string;
    userId: string;
    name: string;
    mimeType: string;
    data: Uint8Array;
    messageId: string;
  }): Promise<Request>;
  /** The same request without its signature or secret. */
  unsigned(request: Request): Promise<Request>;
  /** The same request with a signature that does not match (a wrong secret, or a changed body). */
  forged(request: Request): Promise<Request>;
  /** Everything the fake platform received, in order. */
  sent(): FakePlatformSend[];
  /** The fake platform answers the next send with `status` (and `Retry-After` seconds). */
  failNextSend(status: number, retryAfterSeconds?: number): void;
  /** The fake platform takes `nth - 1` sends and answers the `nth` with `status` (1: the next send). */
  failSend(nth: number, status: number): void;
  dispose(): Promise<void>;
}

const bytes = (text: string) => new TextEncoder().encode(text);

async function oneMessage(channel: Channel, request: Request): Promise<InboundMessage> {
  const result = await channel.receive(request);
  if (result.kind !== 'messages') throw new Error(`expected messages, got ${JSON.stringify(result)}`);
  expect(result.messages).toHaveLength(1);
  return result.messages[0]!;
}

/**
 * The behaviour every `Channel` shares, driven through a local fake of the platform: requests that
 * are not the platform's are rejected; messages, files and button choices are read with the
 * platform's message id (the same on a redelivery); options go out as native buttons within the
 * declared limits and as a numbered list beyond them; files go out with their bytes; a 429 or a 5xx
 * is a retryable `ChannelSendError` (with the platform's `Retry-After`), another refusal is final; a
 * text of several messages resumes after the last one the platform took (`ChannelSendProgress`).
 */
export function describeChannel(
  name: string,
  open: () => Promise<ChannelFixture>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} (Channel conformance)`, () => {
    const cases = conformanceCases(`Channel conformance of ${name}`, options);
    const withFixture = (body: (fixture: ChannelFixture) => Promise<void>) => async () => {
      const fixture = await open();
      try {
        await body(fixture);
      } finally {
        await fixture.dispose();
      }
    };
    const user = { conversationId: '4242', userId: '77' };

    cases.test(
      'declares its capabilities',
      withFixture(async ({ channel }) => {
        expect(channel.name).toMatch(/^[a-z0-9][a-z0-9_-]*$/);
        expect(channel.capabilities.textLength).toBeGreaterThan(0);
        if (channel.capabilities.buttons) {
          expect(channel.capabilities.buttons.max).toBeGreaterThan(0);
          expect(channel.capabilities.buttons.labelLength).toBeGreaterThan(0);
        }
      }),
    );

    cases.test(
      'rejects a request without a signature or with a wrong one',
      withFixture(async (fixture) => {
        const request = await fixture.userMessage({ ...user, text: 'ciao', messageId: '1' });
        expect((await fixture.channel.receive(await fixture.unsigned(request.clone()))).kind).toBe(
          'rejected',
        );
        expect((await fixture.channel.receive(await fixture.forged(request.clone()))).kind).toBe('rejected');
      }),
    );

    cases.test(
      'reads a message with its conversation, user and the platform’s id, the same on a redelivery',
      withFixture(async (fixture) => {
        const request = await fixture.userMessage({
          ...user,
          text: 'dov’è il mio ordine?',
          messageId: '5001',
        });
        const again = request.clone();
        const message = await oneMessage(fixture.channel, request);
        expect(message).toMatchObject({
          text: 'dov’è il mio ordine?',
          selectedOption: null,
          attachments: [],
          conversation: { conversationId: user.conversationId },
        });
        // The platform's user: the suite's user, or the conversation itself where a conversation is
        // one user (WhatsApp's number).
        expect([user.userId, user.conversationId]).toContain(message.conversation.userId);
        expect((await oneMessage(fixture.channel, again)).messageId).toBe(message.messageId);
      }),
    );

    cases.test(
      'reads a button choice as the selected option',
      withFixture(async (fixture) => {
        const message = await oneMessage(
          fixture.channel,
          await fixture.optionChoice({ ...user, option: 'Spedizioni', messageId: '5002' }),
        );
        expect(message.selectedOption).toBe('Spedizioni');
      }),
    );

    cases.test(
      'reads a file the user sent, with its bytes',
      withFixture(async (fixture) => {
        const data = bytes('%PDF-1.4 ricevuta');
        const message = await oneMessage(
          fixture.channel,
          await fixture.userFile({
            ...user,
            name: 'ricevuta.pdf',
            mimeType: 'application/pdf',
            data,
            messageId: '5003',
          }),
        );
        expect(message.attachments).toHaveLength(1);
        expect(message.attachments[0]!.mimeType).toBe('application/pdf');
        expect(await message.attachments[0]!.download()).toEqual(data);
      }),
    );

    cases.test(
      'stops a file’s download past maxBytes (AttachmentTooLargeError), and reads one within it whole',
      withFixture(async (fixture) => {
        const data = new Uint8Array(64 * 1024).fill(7);
        const message = await oneMessage(
          fixture.channel,
          await fixture.userFile({
            ...user,
            name: 'scansione.pdf',
            mimeType: 'application/pdf',
            data,
            messageId: '5013',
          }),
        );
        const [attachment] = message.attachments;
        const refused = await attachment!.download({ maxBytes: data.byteLength - 1 }).catch((error) => error);
        expect(refused).toBeInstanceOf(AttachmentTooLargeError);
        expect(refused.maxBytes).toBe(data.byteLength - 1);
        expect(await attachment!.download({ maxBytes: data.byteLength })).toEqual(data);
      }),
    );

    cases.test(
      'sends options as native buttons within its limits, as a numbered list beyond them',
      withFixture(async (fixture) => {
        const message = await oneMessage(
          fixture.channel,
          await fixture.userMessage({ ...user, text: 'x', messageId: '5004' }),
        );
        const limits = fixture.channel.capabilities.buttons;
        await fixture.channel.send(message.conversation, {
          type: 'text',
          text: 'Scegli:',
          options: ['Ordini', 'Resi'],
        });
        const many = Array.from({ length: (limits?.max ?? 3) + 1 }, (_, index) => `Opzione ${index + 1}`);
        await fixture.channel.send(message.conversation, { type: 'text', text: 'Tutte:', options: many });
        const texts = fixture.sent().filter((item) => item.kind === 'text');
        expect(texts).toHaveLength(2);
        if (limits) expect(texts[0]!.buttons).toEqual(['Ordini', 'Resi']);
        else expect(texts[0]!.text).toContain('1. Ordini');
        expect(texts[1]!.buttons ?? []).toEqual([]);
        expect(texts[1]!.text).toContain(`${many.length}. Opzione ${many.length}`);
        expect(texts.every((item) => item.conversationId === user.conversationId)).toBe(true);
      }),
    );

    cases.test(
      'sends a file with its name and bytes',
      withFixture(async (fixture) => {
        const message = await oneMessage(
          fixture.channel,
          await fixture.userMessage({ ...user, text: 'x', messageId: '5005' }),
        );
        const data = bytes('fattura 2026');
        await fixture.channel.send(message.conversation, {
          type: 'file',
          file: { id: 'f1', name: 'fattura.txt', mimeType: 'text/plain', origin: 'generated' },
          data,
        });
        const files = fixture.sent().filter((item) => item.kind === 'file');
        expect(files).toHaveLength(1);
        expect(files[0]!.fileName).toBe('fattura.txt');
        expect(files[0]!.data).toEqual(data);
      }),
    );

    cases.test(
      'a 429 is retryable after the platform’s Retry-After, a 500 retryable, a 400 final',
      withFixture(async (fixture) => {
        const message = await oneMessage(
          fixture.channel,
          await fixture.userMessage({ ...user, text: 'x', messageId: '5006' }),
        );
        const send = () =>
          fixture.channel.send(message.conversation, { type: 'text', text: 'ciao', options: [] }).then(
            () => null,
            (error: unknown) => error,
          );
        fixture.failNextSend(429, 7);
        const limited = await send();
        expect(limited).toBeInstanceOf(ChannelSendError);
        expect(limited).toMatchObject({ retryable: true, retryAfterMs: 7000 });
        fixture.failNextSend(500);
        expect(await send()).toMatchObject({ retryable: true });
        fixture.failNextSend(400);
        expect(await send()).toMatchObject({ retryable: false });
        expect(await send()).toBeNull();
      }),
    );

    cases.test(
      'a text of several messages resumes after the last one the platform took, never sending one twice, and stops when aborted',
      withFixture(async (fixture) => {
        const message = await oneMessage(
          fixture.channel,
          await fixture.userMessage({ ...user, text: 'x', messageId: '5007' }),
        );
        // Three paragraphs that each fill most of one message: three platform messages.
        const length = fixture.channel.capabilities.textLength;
        const text = [1, 2, 3].map((n) => `P${n} ${'x'.repeat(length - 20)}`).join('\n');
        const counts: number[] = [];
        const progress = (skip: number, controller = new AbortController()): ChannelSendProgress => ({
          skip,
          sent: (count) => counts.push(count),
          signal: controller.signal,
        });
        const send = (with_: ChannelSendProgress) =>
          fixture.channel.send(message.conversation, { type: 'text', text, options: [] }, with_).then(
            () => null,
            (error: unknown) => error,
          );
        const starts = () =>
          fixture
            .sent()
            .filter((item) => item.kind === 'text')
            .map((item) => item.text?.slice(0, 2));
        fixture.failSend(2, 503);
        const failed = await send(progress(0));
        expect(failed).toBeInstanceOf(ChannelSendError);
        expect(failed).toMatchObject({ retryable: true });
        expect(counts).toEqual([1]);
        expect(await send(progress(1))).toBeNull();
        expect(counts).toEqual([1, 2, 3]);
        expect(starts()).toEqual(['P1', 'P2', 'P3']);

        // The server stops waiting after the first message: nothing more goes.
        const controller = new AbortController();
        counts.length = 0;
        const stopped = await send({
          skip: 0,
          sent: (count) => {
            counts.push(count);
            controller.abort();
          },
          signal: controller.signal,
        });
        expect(stopped).toBeInstanceOf(Error);
        expect(counts).toEqual([1]);
        expect(starts()).toEqual(['P1', 'P2', 'P3', 'P1']);
        counts.length = 0;
        expect(await send(progress(0, controller))).toBeInstanceOf(Error);
        expect(counts).toEqual([]);
        expect(starts()).toHaveLength(4);
      }),
    );

    cases.done();
  });
}
