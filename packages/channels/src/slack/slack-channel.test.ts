import { describeChannel } from '@treeagent/core/conformance';
import { describe, expect, it } from 'vitest';
import {
  buttonPress,
  directMessage,
  eventBody,
  FakeSlack,
  slackRequest,
} from '../test-support/fake-slack.js';
import { SlackChannel } from './slack-channel.js';

// The conformance suite drives the channel through Bolt's Web API client against a local fake of
// Slack's Web API; the suite's conversation is a direct message (channel "4242").

describeChannel('SlackChannel (Bolt against a local fake Web API)', async () => {
  const fake = await FakeSlack.start();
  const channel = new SlackChannel({
    botToken: fake.botToken,
    signingSecret: fake.signingSecret,
    apiUrl: fake.apiUrl,
  });
  const signed = (body: string, form = false) => slackRequest(body, { secret: fake.signingSecret, form });
  const resign = async (request: Request, secret: string | null) =>
    slackRequest(await request.text(), {
      secret,
      form: (request.headers.get('content-type') ?? '').includes('form'),
    });
  return {
    channel,
    userMessage: async (input) =>
      signed(
        eventBody(
          directMessage({
            channel: input.conversationId,
            user: input.userId,
            text: input.text,
            ts: `${input.messageId}.0001`,
          }),
        ),
      ),
    optionChoice: async (input) =>
      signed(
        buttonPress({
          channel: input.conversationId,
          user: input.userId,
          value: input.option,
          actionTs: `${input.messageId}.1`,
        }),
        true,
      ),
    userFile: async (input) =>
      signed(
        eventBody(
          directMessage({
            channel: input.conversationId,
            user: input.userId,
            text: '',
            ts: `${input.messageId}.0001`,
            files: [fake.share(`F${input.messageId}`, input.name, input.mimeType, input.data)],
          }),
        ),
      ),
    unsigned: (request) => resign(request, null),
    forged: (request) => resign(request, 'not-the-signing-secret'),
    sent: () => fake.received,
    failNextSend: (status, retryAfter) => fake.failNext(status, retryAfter),
    failSend: (nth, status) => fake.failSend(nth, status),
    dispose: () => fake.close(),
  };
});

describe('SlackChannel requests', () => {
  const open = async () => {
    const fake = await FakeSlack.start();
    const channel = new SlackChannel({
      botToken: fake.botToken,
      signingSecret: fake.signingSecret,
      apiUrl: fake.apiUrl,
    });
    return { fake, channel };
  };

  it('answers the url_verification handshake with its challenge, only when signed', async () => {
    const { fake, channel } = await open();
    const body = JSON.stringify({
      type: 'url_verification',
      token: 'x',
      challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P',
    });
    const result = await channel.receive(slackRequest(body, { secret: fake.signingSecret }));
    expect(result.kind).toBe('answer');
    if (result.kind === 'answer')
      expect(await result.response.json()).toEqual({
        challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P',
      });
    expect((await channel.receive(slackRequest(body, { secret: null }))).kind).toBe('rejected');
    await fake.close();
  });

  it('answers a signed body it cannot read 200 with what was wrong (Slack resends any other status), running nothing; other events run nothing', async () => {
    const { fake, channel } = await open();
    const problem = async (body: string, form = false) => {
      const result = await channel.receive(slackRequest(body, { secret: fake.signingSecret, form }));
      if (result.kind !== 'answer') throw new Error(`expected an answer, got ${result.kind}`);
      expect(result.response.status).toBe(200);
      expect(result.response.headers.get('content-type')).toBe('application/problem+json');
      return ((await result.response.json()) as { detail: string }).detail;
    };
    expect(await problem('not json')).toContain('not a JSON object');
    expect(await problem('null')).toContain('not a JSON object');
    expect(
      await problem(eventBody({ type: 'message', channel: 'D1', user: 'U1', text: 'ciao', ts: 5 })),
    ).toContain('message event');
    expect(
      await problem(eventBody({ type: 'message', channel: 'D1', user: 'U1', ts: '1.1', files: 'a.pdf' })),
    ).toContain('message event');
    expect(await problem(`payload=${encodeURIComponent('{"type":"block_actions"}')}`, true)).toContain(
      'button payload',
    );
    expect(
      await problem(
        `payload=${encodeURIComponent(JSON.stringify({ type: 'block_actions', user: { id: 'U1' }, actions: 'x' }))}`,
        true,
      ),
    ).toContain('button payload');
    // An event the channel does not read (the app subscribed to more) is acknowledged, with no message.
    const home = await channel.receive(
      slackRequest(eventBody({ type: 'app_home_opened', user: 'U1', tab: 'home' }), {
        secret: fake.signingSecret,
      }),
    );
    expect(home).toMatchObject({ kind: 'messages', messages: [] });
    // Unsigned, the same bodies are refused (401) before they are read.
    expect((await channel.receive(slackRequest('not json', { secret: null }))).kind).toBe('rejected');
    await fake.close();
  });

  it('refuses a correctly signed request older than 5 minutes (a replay)', async () => {
    const { fake, channel } = await open();
    const body = eventBody(directMessage({ channel: 'D1', user: 'U1', text: 'ciao', ts: '1.1' }));
    const stale = Math.floor(Date.now() / 1000) - 6 * 60;
    const result = await channel.receive(
      slackRequest(body, { secret: fake.signingSecret, timestamp: stale }),
    );
    expect(result).toMatchObject({ kind: 'rejected', reason: expect.stringContaining('5 minutes') });
    const fresh = Math.floor(Date.now() / 1000) - 4 * 60;
    expect(
      (await channel.receive(slackRequest(body, { secret: fake.signingSecret, timestamp: fresh }))).kind,
    ).toBe('messages');
    await fake.close();
  });

  it('reads a mention in a channel as the thread’s conversation, and ignores its own and edited messages', async () => {
    const { fake, channel } = await open();
    const read = async (event: Record<string, unknown>) => {
      const result = await channel.receive(slackRequest(eventBody(event), { secret: fake.signingSecret }));
      if (result.kind !== 'messages') throw new Error(result.kind);
      expect(result.acknowledgeWith?.status).toBe(200);
      return result.messages;
    };
    const [mention] = await read({
      type: 'app_mention',
      channel: 'C9',
      user: 'U1',
      text: '<@UBOT> where is my order?',
      ts: '100.5',
    });
    expect(mention).toMatchObject({
      text: 'where is my order?',
      conversation: { conversationId: 'C9:100.5', threadId: '100.5', userId: 'U1' },
    });
    const [inThread] = await read({
      type: 'app_mention',
      channel: 'C9',
      user: 'U2',
      text: '<@UBOT> and mine?',
      ts: '101.0',
      thread_ts: '100.5',
    });
    // The app_mention and the message.im twin of one message, and a retry, share the receipt.
    const [direct] = await read({
      type: 'message',
      channel: 'D1',
      channel_type: 'im',
      user: 'U1',
      text: '<@UBOT> hi',
      ts: '7.7',
    });
    const [directMention] = await read({
      type: 'app_mention',
      channel: 'D1',
      user: 'U1',
      text: '<@UBOT> hi',
      ts: '7.7',
    });
    expect(directMention!.messageId).toBe(direct!.messageId);
    const [again] = await read({
      type: 'app_mention',
      channel: 'C9',
      user: 'U1',
      text: '<@UBOT> again',
      ts: '100.5',
    });
    expect(again!.messageId).toBe(mention!.messageId);
    expect(mention!.messageId).not.toContain('C9');
    expect(inThread!.messageId).not.toBe(mention!.messageId);
    expect(inThread!.conversation).toMatchObject({
      conversationId: 'C9:100.5',
      threadId: '100.5',
      userId: 'U2',
    });
    expect(
      await read({
        type: 'message',
        channel: 'D1',
        channel_type: 'im',
        bot_id: 'BBOT',
        text: 'my own answer',
        ts: '2.0',
      }),
    ).toEqual([]);
    expect(
      await read({
        type: 'message',
        subtype: 'message_changed',
        channel: 'D1',
        channel_type: 'im',
        ts: '3.0',
      }),
    ).toEqual([]);
    expect(
      await read({
        type: 'message',
        channel: 'C9',
        channel_type: 'channel',
        user: 'U1',
        text: 'chatter',
        ts: '4.0',
      }),
    ).toEqual([]);
    await fake.close();
  });

  it('answers in the thread and sends options as Block Kit buttons whose value is the option', async () => {
    const { fake, channel } = await open();
    await channel.send(
      { channel: 'slack', conversationId: 'C9:100.5', userId: 'U1', threadId: '100.5' },
      { type: 'text', text: 'Orders <or> returns & more?', options: ['Orders', 'Returns'] },
    );
    expect(fake.posts).toEqual([
      {
        channel: 'C9',
        threadTs: '100.5',
        text: 'Orders &lt;or&gt; returns &amp; more?',
        buttons: [
          { label: 'Orders', value: 'Orders', actionId: 'treeagent-option-0' },
          { label: 'Returns', value: 'Returns', actionId: 'treeagent-option-1' },
        ],
      },
    ]);
    await fake.close();
  });
});
