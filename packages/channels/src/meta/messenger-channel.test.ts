import type { InboundMessage } from '@treeagent/core/adapter';
import { describeChannel } from '@treeagent/core/conformance';
import { describe, expect, it } from 'vitest';
import { FakeMessenger } from '../test-support/fake-messenger.js';
import { InstagramChannel } from './instagram-channel.js';
import { MessengerChannel } from './messenger-channel.js';
import type { MessengerPlatformChannel } from './messenger-platform-channel.js';
import { signMetaBody } from './meta-signature.js';

type Make = (fake: FakeMessenger) => MessengerPlatformChannel;
const options = (fake: FakeMessenger) => ({
  pageAccessToken: fake.accessToken,
  appSecret: fake.appSecret,
  verifyToken: fake.verifyToken,
  graphRoot: fake.root,
});
const messenger: Make = (fake) => new MessengerChannel(options(fake));
const instagram: Make = (fake) => new InstagramChannel(options(fake));

for (const [label, object, make] of [
  ['MessengerChannel', 'page', messenger],
  ['InstagramChannel', 'instagram', instagram],
] as const) {
  describeChannel(
    `${label} (Send API against a local fake Graph API)`,
    async () => {
      const fake = await FakeMessenger.start(object);
      const rewrite = async (request: Request, signature: string | null) =>
        new Request(request.url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            ...(signature ? { 'X-Hub-Signature-256': signature } : {}),
          },
          body: await request.text(),
        });
      return {
        channel: make(fake),
        userMessage: async (input) =>
          fake.webhook({
            sender: input.conversationId,
            event: { message: { mid: `m_${input.messageId}`, text: input.text } },
          }),
        optionChoice: async (input) =>
          fake.webhook({
            sender: input.conversationId,
            event: { postback: { mid: `m_${input.messageId}`, title: input.option, payload: input.option } },
          }),
        userFile: async (input) =>
          fake.webhook({
            sender: input.conversationId,
            event: {
              message: {
                mid: `m_${input.messageId}`,
                attachments: [{ type: 'file', payload: { url: fake.upload(input.messageId, input) } }],
              },
            },
          }),
        unsigned: (request) => rewrite(request, null),
        forged: (request) => rewrite(request, 'sha256=00ff'),
        sent: () => fake.received,
        failNextSend: (status, retryAfter) => fake.failNext(status, retryAfter),
        failSend: (nth, status) => fake.failSend(nth, status),
        dispose: () => fake.close(),
      };
    },
    object === 'instagram'
      ? {
          skip: [
            {
              reason:
                'Instagram takes media to send only by public URL; the channel refuses a file with a final error (tested below)',
              tests: ['sends a file with its name and bytes'],
            },
          ],
        }
      : {},
  );
}

describe('Messenger and Instagram specifics', () => {
  it('a signed body it cannot read is answered 200 with the problem (Meta redelivers anything else), never thrown', async () => {
    const fake = await FakeMessenger.start('page');
    try {
      const channel = messenger(fake);
      const signed = (body: string) =>
        new Request('http://server/channels/messenger/webhook', {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'X-Hub-Signature-256': signMetaBody(fake.appSecret, body),
          },
          body,
        });
      for (const body of ['null', '{"object":"page","entry":"x"}', '{not json']) {
        const result = await channel.receive(signed(body));
        expect(result.kind, body).toBe('answer');
        expect((result as { response: Response }).response.status).toBe(200);
      }
      expect(await channel.receive(signed('{"object":"page","entry":[null,{"messaging":[null]}]}'))).toEqual({
        kind: 'messages',
        messages: [],
      });
    } finally {
      await fake.close();
    }
  });

  it('a long answer with up to 3 options goes in messages of 2,000 characters; only the last, the button template, is held to 640; a file’s caption follows it, resumed after a failure', async () => {
    const fake = await FakeMessenger.start('page');
    try {
      const to = { channel: 'messenger', conversationId: '31', userId: '31' };
      const text = Array.from({ length: 3000 }, (_, i) => `parola${i % 10}`)
        .join(' ')
        .slice(0, 22_000);
      await messenger(fake).send(to, { type: 'text', text, options: ['Yes', 'No'] });
      const texts = fake.received.filter((item) => item.kind === 'text');
      expect(texts.length).toBeGreaterThanOrEqual(12);
      expect(texts.length).toBeLessThanOrEqual(14);
      expect(texts.slice(0, -1).every((item) => item.text!.length <= 2000 && !item.buttons)).toBe(true);
      expect(texts.at(-1)!.buttons).toEqual(['Yes', 'No']);
      expect(texts.at(-1)!.text!.length).toBeLessThanOrEqual(640);

      // A file and its caption are two messages: a retry after the caption failed sends only the caption.
      fake.received.length = 0;
      const file = {
        type: 'file',
        file: { id: 'f1', name: 'fattura.txt', mimeType: 'text/plain', origin: 'generated' },
        data: new TextEncoder().encode('fattura'),
        caption: 'La fattura',
      } as const;
      const counts: number[] = [];
      const progress = (skip: number) => ({
        skip,
        sent: (count: number) => counts.push(count),
        signal: new AbortController().signal,
      });
      fake.failSend(2, 503);
      expect(
        await messenger(fake)
          .send(to, file, progress(0))
          .catch((e: unknown) => e),
      ).toMatchObject({
        retryable: true,
      });
      await messenger(fake).send(to, file, progress(1));
      expect(counts).toEqual([1, 2]);
      expect(fake.received.map((item) => item.kind)).toEqual(['file', 'text']);
    } finally {
      await fake.close();
    }
  });

  it('answers the verify-token handshake, refuses a wrong token and the other platform’s webhook', async () => {
    const fake = await FakeMessenger.start('page');
    try {
      const channel = messenger(fake);
      const ok = await channel.receive(
        new Request(
          `http://server/channels/messenger/webhook?hub.mode=subscribe&hub.verify_token=${fake.verifyToken}&hub.challenge=8812`,
        ),
      );
      expect(ok.kind).toBe('answer');
      expect(await (ok as { response: Response }).response.text()).toBe('8812');
      const wrong = await channel.receive(
        new Request(
          'http://server/channels/messenger/webhook?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1',
        ),
      );
      expect(wrong.kind).toBe('rejected');
      const other = await channel.receive(
        fake.webhook({ sender: '1', event: { message: { mid: 'm1', text: 'hi' } } }, undefined, 'instagram'),
      );
      expect(other).toMatchObject({
        kind: 'rejected',
        reason: expect.stringContaining('subscribe this URL'),
      });
    } finally {
      await fake.close();
    }
  });

  it('reads a quick reply as the chosen option, skips echoes; sends up to 3 options as postback buttons on Messenger, quick replies beyond and on Instagram', async () => {
    const fake = await FakeMessenger.start('page');
    const igFake = await FakeMessenger.start('instagram');
    try {
      const channel = messenger(fake);
      const read = await channel.receive(
        fake.webhook({
          sender: '31',
          event: { message: { mid: 'm_q', text: 'Resi', quick_reply: { payload: 'Resi' } } },
        }),
      );
      expect(read).toMatchObject({
        kind: 'messages',
        messages: [{ messageId: 'm_q', selectedOption: 'Resi' }],
      });
      const echo = await channel.receive(
        fake.webhook({ sender: fake.pageId, event: { message: { mid: 'm_e', text: 'x', is_echo: true } } }),
      );
      expect(echo).toEqual({ kind: 'messages', messages: [] });
      const to = { channel: 'messenger', conversationId: '31', userId: '31' };
      await channel.send(to, { type: 'text', text: 'Scegli', options: ['Ordini', 'Resi'] });
      await channel.send(to, { type: 'text', text: 'Tutte', options: ['A', 'B', 'C', 'D'] });
      const [buttons, quick] = fake.received.map((item) => item.raw as any);
      expect(buttons.message.attachment.payload.buttons).toEqual([
        { type: 'postback', title: 'Ordini', payload: 'Ordini' },
        { type: 'postback', title: 'Resi', payload: 'Resi' },
      ]);
      expect(quick.message.quick_replies.map((reply: any) => reply.payload)).toEqual(['A', 'B', 'C', 'D']);

      await instagram(igFake).send(to, { type: 'text', text: 'Scegli', options: ['Ordini', 'Resi'] });
      expect((igFake.received[0]!.raw as any).message.quick_replies).toHaveLength(2);
      const refused = await instagram(igFake)
        .send(to, {
          type: 'file',
          file: { id: 'f', name: 'fattura.pdf', mimeType: 'application/pdf', origin: 'generated' },
          data: new Uint8Array([1]),
        })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({
        retryable: false,
        message: expect.stringContaining('file "fattura.pdf" has none'),
      });
      // A file with a public URL (https) goes by that URL, a caption after it; the server's own path does not.
      const file = {
        id: 'f',
        name: 'fattura.pdf',
        mimeType: 'application/pdf',
        origin: 'generated',
      } as const;
      const url = 'https://cdn.shop.example/docs/fattura.pdf';
      await instagram(igFake).send(to, {
        type: 'file',
        file: { ...file, url },
        data: new Uint8Array([1]),
        caption: 'Ecco',
      });
      const [linked, caption] = igFake.received.slice(1);
      expect((linked!.raw as any).message).toEqual({ attachment: { type: 'file', payload: { url } } });
      expect(linked).toMatchObject({ kind: 'file', fileName: 'fattura.pdf' });
      expect(caption).toMatchObject({ kind: 'text', text: 'Ecco' });
      const own = { ...file, url: '/api/v1/sessions/s1/files/f' };
      const notPublic = await instagram(igFake)
        .send(to, { type: 'file', file: own, data: new Uint8Array([1]) })
        .catch((error: unknown) => error);
      expect(notPublic).toMatchObject({ retryable: false });
    } finally {
      await fake.close();
      await igFake.close();
    }
  });

  it('after 24 hours an operator’s reply, file and notice go with the HUMAN_AGENT tag; typing is skipped; after 7 days a final error', async () => {
    for (const [object, Channel] of [
      ['page', MessengerChannel],
      ['instagram', InstagramChannel],
    ] as const) {
      const fake = await FakeMessenger.start(object);
      try {
        let now = new Date('2026-03-02T10:00:00Z');
        const later = (hours: number) => {
          now = new Date(now.getTime() + hours * 3_600_000);
        };
        fake.clock = () => now;
        const channel = new Channel({ ...options(fake), now: () => now });
        const read = await channel.receive(
          fake.webhook({ sender: '31', event: { message: { mid: 'm_1', text: 'aiuto' } }, at: now }),
        );
        const { conversation } = (read as { messages: InboundMessage[] }).messages[0]!;
        await channel.send(conversation, { type: 'text', text: 'Un momento.', options: [] });
        later(25);
        await channel.send(conversation, { type: 'typing' });
        await channel.send(conversation, {
          type: 'text',
          text: 'Eccomi.',
          options: [],
          operatorName: 'Anna',
        });
        if (object === 'page')
          await channel.send(conversation, {
            type: 'file',
            file: { id: 'f', name: 'ricevuta.pdf', mimeType: 'application/pdf', origin: 'generated' },
            data: new Uint8Array([1, 2]),
          });
        const handedBack = 'L’assistente riprende la conversazione.';
        await channel.send(conversation, {
          type: 'notice',
          notice: 'handed-back',
          operatorName: 'Anna',
          text: handedBack,
        });
        const sent = fake.received.map((item) => [
          item.kind,
          (item.raw as any).messaging_type,
          (item.raw as any).tag,
        ]);
        const tagged = ['MESSAGE_TAG', 'HUMAN_AGENT'];
        expect(sent, object).toEqual([
          ['text', 'RESPONSE', undefined],
          ['text', ...tagged],
          ...(object === 'page' ? [['file', ...tagged]] : []),
          ['text', ...tagged],
        ]);
        later(24 * 7);
        const refused = await channel
          .send(conversation, { type: 'text', text: 'Ci sei?', options: [], operatorName: 'Anna' })
          .catch((error: unknown) => error);
        expect(refused, object).toMatchObject({
          retryable: false,
          message: expect.stringContaining('more than 7 days ago'),
        });
        expect(fake.received, object).toHaveLength(object === 'page' ? 4 : 3);
      } finally {
        await fake.close();
      }
    }
  });

  it('typing sends mark_seen then typing_on', async () => {
    const fake = await FakeMessenger.start('page');
    try {
      await messenger(fake).send(
        { channel: 'messenger', conversationId: '31', userId: '31' },
        { type: 'typing' },
      );
      expect(fake.received).toMatchObject([{ kind: 'typing', conversationId: '31' }]);
    } finally {
      await fake.close();
    }
  });
});
