import { InMemoryFileStore } from '@treeagent/core';
import {
  type Channel,
  type ChannelConversation,
  type ChannelSend,
  ChannelSendError,
  type ChannelSendProgress,
  InMemoryChannelStore,
  splitText,
} from '@treeagent/core/adapter';
import { describe, expect, it } from 'vitest';
import { MetricsRegistry } from '../metrics/prometheus.js';
import { memoryLogger } from '../test-support/fixtures.js';
import { ChannelDeliveryLoop } from './channel-delivery.js';
import { ChannelMetrics } from './channel-metrics.js';

/**
 * A mock channel (labelled: the delivery loop's unit tests, not a platform) that sends a text as
 * pieces of 10 characters, as a platform channel does with a long answer, honouring the progress;
 * `failPiece` refuses one piece once (503), `pieceMs` makes each piece take that long.
 */
class PiecesChannel implements Channel {
  readonly name = 'pieces';
  readonly platform = 'test';
  readonly capabilities = {
    buttons: null,
    textLength: 10,
    files: { receive: false, send: false },
    typing: false,
  };
  readonly taken: string[] = [];
  failPiece: string | null = null;
  pieceMs = 0;

  async receive(): Promise<never> {
    throw new Error('not used');
  }

  async send(_conversation: ChannelConversation, message: ChannelSend, progress?: ChannelSendProgress) {
    if (message.type !== 'text') return;
    const pieces = splitText(message.text, this.capabilities.textLength);
    for (const [index, piece] of pieces.entries()) {
      if (index < (progress?.skip ?? 0)) continue;
      if (progress?.signal.aborted) throw progress.signal.reason;
      if (this.pieceMs) await new Promise((resolve) => setTimeout(resolve, this.pieceMs));
      if (piece === this.failPiece) {
        this.failPiece = null;
        throw ChannelSendError.ofStatus('test', 503, null);
      }
      if (progress?.signal.aborted) throw progress.signal.reason;
      this.taken.push(piece);
      progress?.sent(index + 1);
    }
  }
}

const TEXT = 'piece0001 piece0002 piece0003 piece0004 piece0005';

async function deliver(
  channel: PiecesChannel,
  options: { timeoutMs?: number; maxAttempts?: number } = {},
  id = 'pieces:m1:0',
) {
  const store = new InMemoryChannelStore();
  const logger = memoryLogger();
  const loop = new ChannelDeliveryLoop({
    store,
    channels: new Map([[channel.name, channel]]),
    files: new InMemoryFileStore(),
    logger,
    metrics: new ChannelMetrics(new MetricsRegistry()),
    options: {
      channels: [channel],
      retryDelayMs: 10,
      pollMs: 20,
      maxAttempts: 8,
      sendsPerSecond: 0,
      ...options,
    },
  });
  await store.enqueue(
    [
      {
        id,
        sessionId: 's1',
        conversation: { channel: channel.name, conversationId: 'c1', userId: 'u1' },
        payload: { type: 'text', text: TEXT, options: [] },
      },
    ],
    new Date(),
  );
  loop.start();
  await expect
    .poll(async () => (await store.counts()).reduce((sum, row) => sum + row.pending, 0), {
      timeout: 10_000,
    })
    .toBe(0);
  loop.stop();
  await loop.settle();
  return { store, logger };
}

describe('ChannelDeliveryLoop: a message sent as several platform messages', () => {
  it('a retry after a refused piece sends only the pieces the platform did not take', async () => {
    const channel = new PiecesChannel();
    channel.failPiece = 'piece0003';
    const { store } = await deliver(channel);
    expect(channel.taken).toEqual(['piece0001', 'piece0002', 'piece0003', 'piece0004', 'piece0005']);
    expect(await store.deadLetters()).toEqual([]);
  });

  it('the timeout counts from the last piece taken: a slow platform still taking pieces gets each once', async () => {
    const channel = new PiecesChannel();
    // Five pieces of 60 ms: 300 ms in all, over the 150 ms timeout, each well within it.
    channel.pieceMs = 60;
    const { store } = await deliver(channel, { timeoutMs: 150 });
    expect(channel.taken).toEqual(['piece0001', 'piece0002', 'piece0003', 'piece0004', 'piece0005']);
    expect(await store.deadLetters()).toEqual([]);
  });

  it('a piece with no answer in the timeout is aborted, and the retry goes on from it', async () => {
    const channel = new PiecesChannel();
    let stalls = 1;
    const send = channel.send.bind(channel);
    channel.send = async (conversation, message, progress) => {
      // The third piece hangs once (the platform never answers), until the loop aborts the send.
      if ((progress?.skip ?? 0) === 0) {
        const pieces = splitText((message as { text: string }).text, 10);
        for (const [index, piece] of pieces.entries()) {
          if (index === 2 && stalls-- > 0)
            await new Promise((_, reject) =>
              progress!.signal.addEventListener('abort', () => reject(progress!.signal.reason)),
            );
          channel.taken.push(piece);
          progress!.sent(index + 1);
        }
        return;
      }
      return send(conversation, message, progress);
    };
    const { store } = await deliver(channel, { timeoutMs: 100 });
    expect(channel.taken).toEqual(['piece0001', 'piece0002', 'piece0003', 'piece0004', 'piece0005']);
    expect(await store.deadLetters()).toEqual([]);
  });

  it("a dead-lettered message is logged by a hash of its id, never the platform's id (a WhatsApp wamid holds the phone number)", async () => {
    const channel = new PiecesChannel();
    channel.send = async () => {
      throw ChannelSendError.ofStatus('test', 400, null);
    };
    const { store, logger } = await deliver(channel, {}, 'whatsapp:wamid.HBgMMzkzNDcxMjM0NTY3:0');
    expect(await store.deadLetters()).toHaveLength(1);
    const lines = logger.entries.map((entry) => entry.message).join('\n');
    expect(lines).toContain('did not take message #');
    expect(lines).not.toContain('wamid.HBgMMzkzNDcxMjM0NTY3');
  });
});
