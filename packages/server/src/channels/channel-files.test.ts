import type {
  Channel,
  ChannelCapabilities,
  ChannelConversation,
  ChannelRequest,
  ChannelSend,
} from '@treeagent/core/adapter';
import { AttachmentTooLargeError, InMemoryAuditLog } from '@treeagent/core/adapter';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverMessage } from '../i18n/server-messages.js';
import { type OperatorAccount, operatorDirectory } from '../operators/operator-accounts.js';
import { testApp } from '../test-support/fixtures.js';
import { handoffAgent } from '../test-support/handoff.js';
import { testOperatorAccounts } from '../test-support/operators.js';
import { loggedUpdateId } from './channel-inbox-worker.js';
import { isTransientDownloadError } from './channel-service.js';

// The seam with a fake channel (FileChannel, labelled: no platform, no signature) whose messages carry
// files that download as the test says, and that records what it sends, typing included, in order.

interface FakeFile {
  name: string;
  /** Bytes the download gives. */
  bytes?: number;
  /** The platform's answer to the download, as the channels throw it ("… answered HTTP 404 …"). */
  status?: number;
  /** The platform cannot be reached (fetch's "fetch failed"). */
  unreachable?: boolean;
  /** A channel that does not keep to `maxBytes` (gives the bytes whole whatever the server asked). */
  ignoresLimit?: boolean;
}

interface FakeMessage {
  id: string;
  text?: string;
  option?: string;
  files?: FakeFile[];
}

const MiB = 1024 * 1024;
const conversation = { conversationId: '42', userId: '7' };

class FileChannel implements Channel {
  readonly name = 'files';
  readonly platform = 'fake';
  readonly capabilities: ChannelCapabilities = {
    buttons: null,
    textLength: 4096,
    files: { receive: true, send: true },
    typing: true,
  };
  /** What the platform took, in order: `typing`, or the type and text of a message. */
  readonly events: string[] = [];
  downloads = 0;
  /** The `maxBytes` the server asked of each download, in order. */
  readonly maxBytes: (number | undefined)[] = [];
  /** How long the platform takes to accept a typing indicator. */
  typingDelayMs = 0;

  async receive(request: Request): Promise<ChannelRequest> {
    const body = (await request.json()) as { messages: FakeMessage[] };
    return {
      kind: 'messages',
      messages: body.messages.map((message) => ({
        messageId: message.id,
        conversation: { channel: this.name, ...conversation },
        text: message.text ?? '',
        selectedOption: message.option ?? null,
        attachments: (message.files ?? []).map((file) => ({
          name: file.name,
          mimeType: 'application/pdf',
          download: async (options?: { maxBytes?: number }) => {
            this.downloads++;
            this.maxBytes.push(options?.maxBytes);
            if (file.unreachable) throw new TypeError('fetch failed');
            if (file.status) throw new Error(`Fake answered HTTP ${file.status} for file F-${file.name}.`);
            const size = file.bytes ?? 4;
            // As the channels' readBodyWithin: the reading stops past maxBytes.
            if (!file.ignoresLimit && options?.maxBytes !== undefined && size > options.maxBytes)
              throw new AttachmentTooLargeError(`file F-${file.name}`, options.maxBytes);
            return new Uint8Array(size);
          },
        })),
      })),
    };
  }

  async send(_conversation: ChannelConversation, message: ChannelSend): Promise<void> {
    if (message.type === 'typing') {
      await new Promise((resolve) => setTimeout(resolve, this.typingDelayMs));
      this.events.push('typing');
      return;
    }
    this.events.push(`${message.type}:${'text' in message ? message.text : ''}`);
  }

  texts(): string[] {
    return this.events.filter((event) => event.startsWith('text:')).map((event) => event.slice(5));
  }
}

let accounts: OperatorAccount[];
beforeAll(async () => {
  accounts = await testOperatorAccounts();
});

function filesApp(limits?: { maxUploadBytes?: number; maxAttachments?: number }) {
  const channel = new FileChannel();
  const made = testApp({
    ...(limits ? { limits } : {}),
    agent: handoffAgent(),
    operators: { directory: operatorDirectory(accounts), auditLog: new InMemoryAuditLog() },
    channels: { channels: [channel], retryDelayMs: 20, pollMs: 50 },
  });
  const post = (...messages: FakeMessage[]) =>
    made.app.request('/channels/files/webhook', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ messages }),
    });
  const sessionId = () =>
    made.agent.sessionStore.channelStore!().sessionOf(
      { channel: 'files', ...conversation },
      'unused',
      new Date(),
    );
  const userSaid = async () =>
    (await made.agent.history(await sessionId())).filter((entry) => entry.role === 'user');
  return { ...made, channel, post, sessionId, userSaid };
}

const logLines = (logger: { entries: { message: string }[] }) =>
  logger.entries.map((entry) => entry.message).join('\n');

describe('files of channel messages', () => {
  it('a file the platform will not give (4xx) is left out: the message and the ones after it run, the user and the agent are told, no 500', async () => {
    const { app, channel, post, userSaid, logger, agent, sessionId } = filesApp();
    try {
      const response = await post(
        { id: 'wamid.F1', text: 'hello', files: [{ name: 'invoice.pdf', status: 400 }] },
        { id: 'wamid.F2', text: 'hello' },
      );
      expect(response.status).toBe(200);
      await expect.poll(async () => (await userSaid()).length).toBe(2);
      const [first, second] = await userSaid();
      expect(first!.content).toBe(
        `hello\n${serverMessage('en', 'channels.fileNote', { name: 'invoice.pdf' })}`,
      );
      expect(first!.attachments ?? []).toEqual([]);
      expect(second!.content).toBe('hello');
      await expect
        .poll(() => channel.texts())
        .toContain(serverMessage('en', 'channels.fileNotReceived', { name: 'invoice.pdf' }));
      // The notice goes before the message's answer.
      expect(channel.texts()[0]).toBe(
        serverMessage('en', 'channels.fileNotReceived', { name: 'invoice.pdf' }),
      );
      expect(await agent.fileStore.usage!(await sessionId())).toBe(0);
      const lines = logLines(logger);
      expect(lines).toContain(`file 1 of update ${loggedUpdateId('wamid.F1')}`);
      expect(lines).toContain('HTTP 400');
      expect(lines).not.toContain('wamid.F1');
      expect(lines).not.toContain('invoice.pdf');
      // A redelivery neither downloads again nor tells the user twice.
      const downloads = channel.downloads;
      expect(
        (await post({ id: 'wamid.F1', text: 'hello', files: [{ name: 'invoice.pdf', status: 400 }] })).status,
      ).toBe(200);
      expect(channel.downloads).toBe(downloads);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(
        channel
          .texts()
          .filter(
            (text) => text === serverMessage('en', 'channels.fileNotReceived', { name: 'invoice.pdf' }),
          ),
      ).toHaveLength(1);
    } finally {
      await app.shutdown();
    }
  });

  it('a platform that cannot be reached, or answers 5xx, fails the request (500) so the platform sends the message again; nothing is stored', async () => {
    const { app, post, userSaid, agent, sessionId, logger } = filesApp();
    try {
      const response = await post({
        id: 'wamid.T1',
        text: 'hello',
        files: [
          { name: 'a.pdf', bytes: 10 },
          { name: 'b.pdf', status: 503 },
        ],
      });
      expect(response.status).toBe(500);
      expect(
        (await post({ id: 'm2', text: 'hello', files: [{ name: 'c.pdf', unreachable: true }] })).status,
      ).toBe(500);
      expect(await agent.fileStore.usage!(await sessionId())).toBe(0);
      expect(await userSaid()).toEqual([]);
      expect(logLines(logger)).toContain(
        `update ${loggedUpdateId('wamid.T1')} could not be put in the inbox`,
      );
      expect(logLines(logger)).not.toContain('wamid.T1');
      // The redelivery, once the platform answers, stores both files and runs the message.
      expect(
        (
          await post({
            id: 'wamid.T1',
            text: 'hello',
            files: [
              { name: 'a.pdf', bytes: 10 },
              { name: 'b.pdf', bytes: 20 },
            ],
          })
        ).status,
      ).toBe(200);
      await expect
        .poll(async () => (await userSaid())[0]?.attachments?.map((file) => file.name))
        .toEqual(['a.pdf', 'b.pdf']);
    } finally {
      await app.shutdown();
    }
  });

  it('a file over the web chat’s upload limit (maxUploadBytes, 10 MiB by default) is not stored; the user is told in their language and the message runs', async () => {
    const { app, channel, post, userSaid, agent, sessionId } = filesApp();
    try {
      const response = await post({
        id: 'm3',
        text: 'hello',
        files: [
          { name: 'scan.pdf', bytes: 10 * MiB + 1 },
          { name: 'small.pdf', bytes: 100 },
        ],
      });
      expect(response.status).toBe(200);
      await expect.poll(async () => (await userSaid()).length).toBe(1);
      const [said] = await userSaid();
      expect(said!.attachments?.map((file) => file.name)).toEqual(['small.pdf']);
      expect(said!.content).toContain(serverMessage('en', 'channels.fileNote', { name: 'scan.pdf' }));
      expect(await agent.fileStore.usage!(await sessionId())).toBe(100);
      // Each download was asked to stop at the limit: the large file was never read whole.
      expect(channel.maxBytes).toEqual([10 * MiB, 10 * MiB]);
      await expect
        .poll(() => channel.texts())
        .toContain(serverMessage('en', 'channels.fileTooLarge', { name: 'scan.pdf', megabytes: 10 }));
      expect(serverMessage('it', 'channels.fileTooLarge', { name: 'scan.pdf', megabytes: 10 })).toContain(
        '10 MB',
      );
    } finally {
      await app.shutdown();
    }
  });

  it('the server’s own limits (option `limits`) apply to channel files, not the defaults', async () => {
    const { app, channel, post, userSaid } = filesApp({ maxUploadBytes: 1000 });
    try {
      await post({ id: 'm9', text: 'hello', files: [{ name: 'big.pdf', bytes: 1001 }] });
      await expect.poll(async () => (await userSaid()).length).toBe(1);
      const [said] = await userSaid();
      expect(said!.attachments ?? []).toEqual([]);
      expect(said!.content).toContain(serverMessage('en', 'channels.fileNote', { name: 'big.pdf' }));
      await expect.poll(() => channel.texts().some((text) => text.includes('big.pdf'))).toBe(true);
    } finally {
      await app.shutdown();
    }
  });

  it('a channel that does not keep to maxBytes is held to the upload limit all the same', async () => {
    const { app, post, userSaid, agent, sessionId } = filesApp({ maxUploadBytes: 1000 });
    try {
      await post({ id: 'm10', text: 'hello', files: [{ name: 'big.pdf', bytes: 1001, ignoresLimit: true }] });
      await expect.poll(async () => (await userSaid()).length).toBe(1);
      expect((await userSaid())[0]!.attachments ?? []).toEqual([]);
      expect(await agent.fileStore.usage!(await sessionId())).toBe(0);
    } finally {
      await app.shutdown();
    }
  });

  it('files past maxAttachments (10 by default) are neither fetched nor stored; the user is told for each', async () => {
    const { app, channel, post, userSaid } = filesApp({ maxAttachments: 2 });
    try {
      const files = ['a', 'b', 'c', 'd'].map((name) => ({ name: `${name}.pdf`, bytes: 10 }));
      expect((await post({ id: 'm11', text: 'hello', files })).status).toBe(200);
      await expect.poll(async () => (await userSaid()).length).toBe(1);
      const [said] = await userSaid();
      expect(said!.attachments?.map((file) => file.name)).toEqual(['a.pdf', 'b.pdf']);
      expect(said!.content).toContain(serverMessage('en', 'channels.fileNote', { name: 'd.pdf' }));
      expect(channel.downloads).toBe(2);
      await expect
        .poll(() => channel.texts())
        .toContain(serverMessage('en', 'channels.fileTooMany', { name: 'c.pdf', count: 2 }));
      expect(serverMessage('en', 'channels.fileTooMany', { name: 'c.pdf', count: 2 })).toContain('at most 2');
    } finally {
      await app.shutdown();
    }
  });

  it('a file past what the session’s quota leaves (sessionQuotaBytes, 50 MiB by default) is not stored; the user is told', async () => {
    const { app, channel, post, userSaid, agent, sessionId } = filesApp();
    try {
      const session = await sessionId();
      await agent.fileStore.put({
        name: 'earlier.bin',
        mimeType: 'application/octet-stream',
        data: new Uint8Array(50 * MiB - 50),
        origin: 'chat',
        sessionId: session,
      });
      expect(
        (await post({ id: 'm4', text: 'hello', files: [{ name: 'more.pdf', bytes: 100 }] })).status,
      ).toBe(200);
      await expect.poll(async () => (await userSaid()).length).toBe(1);
      expect((await userSaid())[0]!.attachments ?? []).toEqual([]);
      expect(await agent.fileStore.usage!(session)).toBe(50 * MiB - 50);
      // The download was asked to stop at what the quota leaves.
      expect(channel.maxBytes).toEqual([50]);
      await expect
        .poll(() => channel.texts())
        .toContain(serverMessage('en', 'channels.fileNoRoom', { name: 'more.pdf' }));
    } finally {
      await app.shutdown();
    }
  });

  it('which download failures are tried again: unreachable, 5xx, 408, 429; not a 4xx nor a missing URL', () => {
    expect(isTransientDownloadError(new TypeError('fetch failed'))).toBe(true);
    expect(isTransientDownloadError(new Error('Slack answered HTTP 502 for file F1.'))).toBe(true);
    expect(isTransientDownloadError(Object.assign(new Error('Too Many Requests'), { error_code: 429 }))).toBe(
      true,
    );
    expect(isTransientDownloadError(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe(true);
    // grammY's GrammyError for getFile past Telegram's 20 MB.
    expect(
      isTransientDownloadError(Object.assign(new Error('Bad Request: file is too big'), { error_code: 400 })),
    ).toBe(false);
    expect(isTransientDownloadError(new Error('WhatsApp answered HTTP 404 for media 1.'))).toBe(false);
    expect(isTransientDownloadError(new Error('Slack gave no download URL for file F1.'))).toBe(false);
  });
});

describe('the typing indicator', () => {
  it('reaches the platform before the answer, even when the platform is slow to take it', async () => {
    const { app, channel, post } = filesApp();
    channel.typingDelayMs = 300;
    try {
      expect((await post({ id: 't1', text: 'hello' })).status).toBe(200);
      await expect.poll(() => channel.texts().length).toBe(1);
      expect(channel.events[0]).toBe('typing');
    } finally {
      await app.shutdown();
    }
  });

  it('is not sent while people have the conversation (a handoff), nor for a message that runs no turn', async () => {
    const { app, channel, post } = filesApp();
    try {
      await post({ id: 'h1', text: 'I want a human' });
      await expect.poll(() => channel.events.length).toBeGreaterThanOrEqual(2);
      expect(channel.events.filter((event) => event === 'typing')).toHaveLength(1);
      expect((await post({ id: 'h2', text: 'are you there?' })).status).toBe(200);
      // A redelivery runs no turn.
      expect((await post({ id: 'h2', text: 'are you there?' })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(channel.events.filter((event) => event === 'typing')).toHaveLength(1);
    } finally {
      await app.shutdown();
    }
  });
});
