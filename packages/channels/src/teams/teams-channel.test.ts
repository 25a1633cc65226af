import { describeChannel } from '@treeagent/core/conformance';
import { describe, expect, it } from 'vitest';
import { FakeTeams, FakeTenantTokens, teamsActivity, teamsRequest } from '../test-support/fake-teams.js';
import { TeamsChannel } from './teams-channel.js';

// The conformance suite drives the channel through the Agents SDK (its JWT validation pointed at a
// local tenant's keys, its ConnectorClient at a local Bot Connector). The token provider is the fake
// tenant's client-credentials endpoint (labelled: MSAL only talks to an https authority).

const channelOf = (fake: FakeTeams) =>
  new TeamsChannel({
    appId: fake.appId,
    appPassword: fake.appPassword,
    tenantId: fake.tenantId,
    authority: fake.authority,
    tokenProvider: new FakeTenantTokens(fake),
  });

/** The personal chat `a:1` with user `29:u`, answered through the fake's Bot Connector. */
const conversationIn = (fake: FakeTeams) => ({
  channel: 'teams',
  conversationId: 'a:1',
  userId: '29:u',
  reply: { serviceUrl: fake.serviceUrl },
});

describeChannel(
  'TeamsChannel (Agents SDK against a local tenant and Bot Connector)',
  async () => {
    const fake = await FakeTeams.start();
    const channel = channelOf(fake);
    const signed = (activity: unknown) => teamsRequest(activity, fake.token());
    return {
      channel,
      userMessage: async (input) =>
        signed(
          teamsActivity(fake, {
            conversationId: input.conversationId,
            userId: input.userId,
            text: input.text,
            id: input.messageId,
          }),
        ),
      optionChoice: async (input) =>
        signed(
          teamsActivity(fake, {
            conversationId: input.conversationId,
            userId: input.userId,
            id: input.messageId,
            value: { treeagentOption: input.option },
          }),
        ),
      userFile: async (input) =>
        signed(
          teamsActivity(fake, {
            conversationId: input.conversationId,
            userId: input.userId,
            id: input.messageId,
            attachments: [fake.share(`file-${input.messageId}`, input.name, input.data)],
          }),
        ),
      unsigned: async (request) => teamsRequest(await request.json(), null),
      forged: async (request) => teamsRequest(await request.json(), fake.token({}, 'other')),
      sent: () => fake.received.filter((item) => item.kind !== 'typing'),
      failNextSend: (status, retryAfter) => fake.failNext(status, retryAfter),
      failSend: (nth, status) => fake.failSend(nth, status),
      dispose: () => fake.close(),
    };
  },
  {
    skip: [
      {
        reason:
          'Teams bots send files other than images through a file consent card: the bytes leave only after the user accepts (the accept, the upload and the file info card are tested below)',
        tests: ['sends a file with its name and bytes'],
      },
    ],
  },
);

describe('TeamsChannel requests', () => {
  it('refuses a token for another app, an expired one, another issuer, and one issued for another service URL', async () => {
    const fake = await FakeTeams.start();
    const channel = channelOf(fake);
    const activity = teamsActivity(fake, { conversationId: 'a:1', userId: '29:u', text: 'ciao' });
    const reason = async (token: string) => {
      const result = await channel.receive(teamsRequest(activity, token));
      return result.kind === 'rejected' ? result.reason : result.kind;
    };
    expect(await reason(fake.token({ aud: 'another-app' }))).toMatch(/not valid/);
    expect(await reason(fake.token({ exp: Math.floor(Date.now() / 1000) - 3600 }))).toMatch(/not valid/);
    expect(await reason(fake.token({ iss: 'https://evil.example.com/v2.0' }))).toMatch(/not valid/);
    expect(await reason(fake.token({ serviceurl: 'https://evil.example.com/' }))).toMatch(/serviceUrl/);
    // Without the claim the service URL cannot be checked: the bot's token would go to any URL.
    expect(await reason(fake.token({ serviceurl: undefined }))).toMatch(/no serviceurl claim/);
    expect(await reason(fake.token())).toBe('messages');
    await fake.close();
  });

  it('a signed body that is not an activity is answered 400 with the problem, never thrown', async () => {
    const fake = await FakeTeams.start();
    try {
      const channel = channelOf(fake);
      for (const body of [null, [1], { text: 'no type' }]) {
        const result = await channel.receive(teamsRequest(body, fake.token()));
        expect(result.kind).toBe('answer');
        const response = (result as { response: Response }).response;
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ detail: expect.stringContaining('activity') });
      }
      const notJson = new Request('http://server/channels/teams/webhook', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${fake.token()}` },
        body: '{not json',
      });
      const result = await channel.receive(notJson);
      expect(result.kind).toBe('answer');
      expect((result as { response: Response }).response.status).toBe(400);
    } finally {
      await fake.close();
    }
  });

  it('reads the text without the bot’s <at> mention; ignores conversation updates', async () => {
    const fake = await FakeTeams.start();
    const channel = channelOf(fake);
    const mention = teamsActivity(fake, {
      conversationId: '19:abc@thread.tacv2;messageid=1700',
      userId: '29:u',
      text: '<at>Help desk</at> where is my order?',
      conversationType: 'channel',
    });
    const result = await channel.receive(teamsRequest(mention, fake.token()));
    expect(result).toMatchObject({
      kind: 'messages',
      messages: [
        {
          text: 'where is my order?',
          conversation: { conversationId: '19:abc@thread.tacv2;messageid=1700' },
        },
      ],
    });
    const update = { ...mention, type: 'conversationUpdate', membersAdded: [{ id: fake.botId }] };
    expect(await channel.receive(teamsRequest(update, fake.token()))).toEqual({
      kind: 'messages',
      messages: [],
    });
    await fake.close();
  });

  it('sends another file through a file consent card: on accept the bytes go to OneDrive and a file info card follows; a decline sends nothing; a context it did not sign is refused', async () => {
    const fake = await FakeTeams.start();
    try {
      const channel = channelOf(fake);
      const conversation = conversationIn(fake);
      const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]);
      const file = {
        id: 'f2',
        name: 'fattura.pdf',
        mimeType: 'application/pdf',
        origin: 'generated',
      } as const;
      await channel.send(conversation, { type: 'file', file, data: pdf, caption: 'La fattura di marzo' });
      expect(fake.posts.at(-1)!.attachments).toEqual([
        { contentType: 'application/vnd.microsoft.teams.card.file.consent', name: 'fattura.pdf' },
      ]);
      const [consent] = fake.consents;
      expect(consent).toMatchObject({ description: 'La fattura di marzo', sizeInBytes: pdf.length });
      const read: string[] = [];
      const context = {
        readFile: async (id: string) => {
          read.push(id);
          return pdf;
        },
      };
      const invoke = (action: string, consentContext: unknown, info = fake.uploadInfo('fattura.pdf')) =>
        teamsRequest(
          {
            ...teamsActivity(fake, { conversationId: 'a:1', userId: '29:u' }),
            type: 'invoke',
            name: 'fileConsent/invoke',
            value: { type: 'fileUpload', action, context: consentContext, uploadInfo: info },
          },
          fake.token(),
        );
      const posts = fake.posts.length;
      const declined = await channel.receive(invoke('decline', consent!.declineContext), context);
      expect((declined as { response: Response }).response.status).toBe(200);
      expect([fake.posts.length, read, fake.uploads.size]).toEqual([posts, [], 0]);

      const forged = await channel.receive(
        invoke('accept', { ...consent!.acceptContext, fileId: 'f9' }),
        context,
      );
      expect(forged).toMatchObject({
        kind: 'rejected',
        reason: expect.stringContaining('not one this channel signed'),
      });
      expect(read).toEqual([]);

      const info = fake.uploadInfo('fattura.pdf');
      const accepted = await channel.receive(invoke('accept', consent!.acceptContext, info), context);
      expect((accepted as { response: Response }).response.status).toBe(200);
      expect(read).toEqual(['f2']);
      expect(fake.uploads.get(info.uniqueId)).toEqual(pdf);
      expect(fake.posts.at(-1)!.attachments).toEqual([
        {
          contentType: 'application/vnd.microsoft.teams.card.file.info',
          contentUrl: info.contentUrl,
          name: 'fattura.pdf',
        },
      ]);
    } finally {
      await fake.close();
    }
  });

  it('sends an image inline', async () => {
    const fake = await FakeTeams.start();
    const channel = channelOf(fake);
    const conversation = conversationIn(fake);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    await channel.send(conversation, {
      type: 'file',
      file: { id: 'f1', name: 'map.png', mimeType: 'image/png', origin: 'generated' },
      data: png,
    });
    expect(fake.received).toEqual([{ conversationId: 'a:1', kind: 'file', fileName: 'map.png', data: png }]);
    await fake.close();
  });
});
