import { randomBytes, randomUUID } from 'node:crypto';
import type { AgentOutput, FileMetadata, TreeAgent } from '@treeagent/core';
import type {
  ChannelConversation,
  ChannelPayload,
  ChannelStore,
  HandoffUpdate,
} from '@treeagent/core/adapter';
import {
  type Channel,
  type ChannelListener,
  type InboundMessage,
  optionOfAnswer,
  payloadsOfOutput,
} from '@treeagent/core/adapter';
import { hashSecret } from '../auth/secrets.js';
import type { SessionTokens } from '../auth/session-tokens.js';
import { ApiError } from '../errors/api-error.js';
import type { ServerLogger } from '../errors/error-response.js';
import type { MetricsRegistry } from '../metrics/prometheus.js';
import { TurnRunner } from '../turns/turn-runner.js';
import { AcknowledgedTurns } from './acknowledged-turns.js';
import { ChannelDeliveryLoop } from './channel-delivery.js';
import { ChannelMetrics } from './channel-metrics.js';
import { payloadsOfHandoffEntries } from './channel-payloads.js';
import { ChannelSatisfaction, type ChannelSatisfactionStores } from './channel-satisfaction.js';
import type { MessagingChannels } from './channels-options.js';

/** A channel session's id: random, kept in the channel store (the platform's ids never appear in it). */
const newSessionId = () => `ch-${randomUUID()}`;

/**
 * The server's side of the channel seam (docs/channels.md): reads verified webhook requests, maps each
 * platform conversation to its session, runs one turn per message with the platform's message id as
 * its receipt (a redelivery runs nothing), and puts what the turn and the operators send in the
 * durable outbox that `ChannelDeliveryLoop` sends.
 */
export class ChannelService {
  readonly store: ChannelStore;
  readonly channels: ReadonlyMap<string, Channel>;
  readonly delivery: ChannelDeliveryLoop;
  readonly metrics: ChannelMetrics;
  readonly maxBodyBytes: number;
  readonly #agent: TreeAgent;
  readonly #runner: TurnRunner;
  readonly #logger: ServerLogger;
  readonly #tokens: SessionTokens;
  readonly #acknowledged = new AcknowledgedTurns();
  readonly #listeners: ChannelListener[] = [];
  readonly #answersInCommit: boolean;
  #stopping: Promise<void> = Promise.resolve();
  readonly #locale: string;
  readonly #satisfaction: ChannelSatisfaction | null;

  constructor(init: {
    agent: TreeAgent;
    runner: TurnRunner;
    /** The server's session tokens: a channel session is registered there, so session expiry applies to it. */
    tokens: SessionTokens;
    registry: MetricsRegistry;
    logger: ServerLogger;
    options: MessagingChannels;
    /** The deployment's language, for notices to sessions whose language is not fixed (`--locale`). */
    locale?: string;
    /** Where ratings (CSAT) asked on the channels after a handoff are kept; without it none is asked. */
    satisfaction?: ChannelSatisfactionStores;
  }) {
    const { options, agent } = init;
    const channels = new Map<string, Channel>();
    for (const channel of options.channels) {
      if (!/^[a-z0-9][a-z0-9_-]{0,62}$/.test(channel.name))
        throw new TypeError(
          `Channel name ${JSON.stringify(channel.name)} is not usable in a webhook URL: use 1–63 lowercase letters, digits, "-" or "_".`,
        );
      if (channels.has(channel.name))
        throw new TypeError(`Two channels are named "${channel.name}": give each its own name.`);
      channels.set(channel.name, channel);
    }
    this.channels = channels;
    const storeOf = (agent.sessionStore as { channelStore?: () => ChannelStore }).channelStore;
    const store = options.store ?? storeOf?.call(agent.sessionStore) ?? null;
    if (!store)
      throw new TypeError(
        'The session store keeps no channel store (it has no channelStore()): give the option channels.store, or use the SQLite or PostgreSQL session store.',
      );
    this.store = store;
    // The session store's own channel store: the turn's commit writes the answer to its outbox.
    this.#answersInCommit = !options.store || options.store === storeOf?.call(agent.sessionStore);
    this.metrics = new ChannelMetrics(init.registry);
    this.maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
    this.#agent = agent;
    this.#runner = init.runner;
    this.#logger = init.logger;
    this.#locale = init.locale ?? 'en';
    this.#satisfaction = init.satisfaction ? new ChannelSatisfaction(init.satisfaction) : null;
    this.#tokens = init.tokens;
    this.delivery = new ChannelDeliveryLoop({
      store: this.store,
      channels,
      files: agent.fileStore,
      logger: init.logger,
      metrics: this.metrics,
      options,
    });
    this.delivery.start();
    for (const channel of channels.values()) this.#listen(channel);
  }

  /** A channel that fetches its own updates (Telegram's long polling): its messages run as a webhook's do. */
  #listen(channel: Channel): void {
    const listener = channel.listen?.((messages) => this.#handleAll(channel, messages));
    if (!listener) return;
    this.#listeners.push(listener);
    listener.stopped.catch((error: unknown) =>
      this.#logger.error(
        `Channel "${channel.name}" stopped fetching updates: ${(error as Error)?.message ?? error}`,
      ),
    );
  }

  /** Runs each message's turn in order; throws at the first that failed (counted and logged). */
  async #handleAll(channel: Channel, messages: readonly InboundMessage[]): Promise<void> {
    for (const message of messages) {
      try {
        await this.#handle(channel, message);
      } catch (error) {
        this.metrics.received.inc({ channel: channel.name, result: 'failed' });
        this.#logger.error(
          `Channel "${channel.name}": update ${message.messageId} failed; the platform will send it again`,
          error,
        );
        throw error;
      }
    }
  }

  /**
   * One webhook request of `channel`: 401 when it is not the platform's (nothing stored), the
   * channel's own answer to a handshake, else 200 once every message it carries ran its turn (a
   * failure answers 500, so the platform delivers it again; the receipt makes that safe).
   */
  async receive(channel: Channel, request: Request): Promise<Response> {
    const result = await channel.receive(request, { readFile: (id) => this.#agent.fileStore.read(id) });
    if (result.kind === 'rejected') {
      this.metrics.received.inc({ channel: channel.name, result: 'rejected' });
      this.#logger.error(`Channel "${channel.name}" refused a webhook request: ${result.reason}.`);
      return Response.json(
        {
          error: { code: 'UNAUTHORIZED', message: `Not a request of ${channel.platform}: ${result.reason}.` },
        },
        { status: 401 },
      );
    }
    if (result.kind === 'answer') return result.response;
    if (result.acknowledgeWith) {
      for (const message of result.messages)
        this.#acknowledged.run(
          `${channel.name}\u0000${message.conversation.conversationId}`,
          () => this.#handle(channel, message),
          (error) => {
            // Answered already: the platform will not deliver it again (docs/channels.md, "Slack").
            this.metrics.received.inc({ channel: channel.name, result: 'failed' });
            this.#logger.error(`Channel "${channel.name}": update ${message.messageId} failed`, error);
          },
        );
      return result.acknowledgeWith;
    }
    try {
      await this.#handleAll(channel, result.messages);
    } catch {
      return Response.json(
        {
          error: { code: 'INTERNAL', message: 'The message could not be processed now; deliver it again.' },
        },
        { status: 500 },
      );
    }
    return Response.json({ ok: true });
  }

  async #handle(channel: Channel, message: InboundMessage): Promise<void> {
    const receipt = { channel: channel.name, messageId: message.messageId };
    const conversation: ChannelConversation = { ...message.conversation, channel: channel.name };
    const sessionId = await this.store.sessionOf(conversation, newSessionId(), new Date());
    await this.#register(sessionId);
    if (await this.#agent.sessionStore.hasReceipt?.(receipt)) {
      this.metrics.received.inc({ channel: channel.name, result: 'duplicate' });
      return;
    }
    // After a handoff: the rating asked with buttons 1–5, and its comment, run no turn.
    const rated = await this.#satisfaction?.receive(
      sessionId,
      message.text,
      message.selectedOption ?? null,
      () => this.#languageOf(sessionId),
    );
    if (rated) {
      await this.enqueue(sessionId, conversation, `${channel.name}:${message.messageId}`, rated);
      this.metrics.received.inc({ channel: channel.name, result: 'turn' });
      return;
    }
    if (channel.capabilities.typing)
      void channel.send(conversation, { type: 'typing' }).catch(() => {
        // Only a hint: a typing indicator that did not arrive is not retried.
      });
    const attachments = await this.#store(sessionId, message);
    const selectedOption = message.selectedOption ?? (await this.#numberedAnswer(sessionId, message.text));
    const turn = this.#runner.start({
      sessionId,
      message: message.text,
      ...(selectedOption ? { selectedOption } : {}),
      attachments,
      clientMetadata: { channel: channel.name, platform: channel.platform },
      inbound: receipt,
      // An experiment splits by the channel's user: the same variant in each of their conversations.
      userId: `${channel.name}:${conversation.userId}`,
      // The answer joins the outbox in the turn's own commit: a crash right after it cannot lose it.
      ...(this.#answersInCommit ? { replyTo: conversation } : {}),
    });
    let output: AgentOutput;
    try {
      output = await TurnRunner.output(turn);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'DUPLICATE_DELIVERY') {
        this.metrics.received.inc({ channel: channel.name, result: 'duplicate' });
        return;
      }
      throw error;
    }
    this.metrics.received.inc({ channel: channel.name, result: 'turn' });
    if (this.#answersInCommit) {
      this.delivery.poke();
      return;
    }
    // A channel store apart from the session store (option channels.store): queued after the commit.
    await this.enqueue(
      sessionId,
      conversation,
      `${channel.name}:${message.messageId}`,
      payloadsOfOutput(output),
    );
  }

  /**
   * Registers a channel session with the server's session tokens (under a random token nobody holds,
   * so the web API cannot open it) and marks it used, so the idle and absolute expiry delete it like
   * any other session.
   */
  async #register(sessionId: string): Promise<void> {
    if ((await this.#tokens.find(sessionId)) === null)
      await this.#tokens.save(sessionId, hashSecret(randomBytes(32).toString('base64url')));
    else await this.#tokens.touch?.(sessionId, new Date());
  }

  /** The user's files, fetched from the platform and stored in the agent's file store for the session. */
  async #store(sessionId: string, message: InboundMessage): Promise<FileMetadata[]> {
    const stored: FileMetadata[] = [];
    for (const attachment of message.attachments) {
      const data = await attachment.download();
      stored.push(
        await this.#agent.fileStore.put({
          name: attachment.name,
          mimeType: attachment.mimeType,
          data,
          origin: 'chat',
          sessionId,
        }),
      );
    }
    return stored;
  }

  /** "2" as the answer to options sent as a numbered list (a platform without buttons, or too many options). */
  async #numberedAnswer(sessionId: string, text: string): Promise<string | null> {
    if (!/^\s*\d{1,2}\s*$/.test(text)) return null;
    const recent = await this.#agent.history(sessionId, { limit: 10 });
    const last = recent.reverse().find((entry) => entry.role === 'assistant');
    return last?.options?.length ? optionOfAnswer(text, last.options) : null;
  }

  /** The session's language, else the deployment's (`--locale`). */
  async #languageOf(sessionId: string): Promise<string> {
    return (await this.#agent.inspectSession(sessionId))?.language ?? this.#locale;
  }

  /** Puts payloads in the outbox, in order, with ids derived from `key` (the same payloads added twice are kept once). */
  async enqueue(
    sessionId: string,
    conversation: ChannelConversation,
    key: string,
    payloads: readonly ChannelPayload[],
  ): Promise<void> {
    if (payloads.length === 0) return;
    await this.store.enqueue(
      payloads.map((payload, index) => ({ id: `${key}:${index}`, sessionId, conversation, payload })),
      new Date(),
    );
    this.delivery.poke();
  }

  /** An operator's action on a session: when it came from a channel, what the user should see goes to the outbox. */
  async afterHandoffAction(sessionId: string, update: HandoffUpdate): Promise<void> {
    try {
      const conversation = await this.store.conversationOf(sessionId);
      if (!conversation) return;
      const language = await this.#languageOf(sessionId);
      const payloads = [
        ...payloadsOfHandoffEntries(update.entries, language),
        ...(this.#satisfaction?.questionAfter(update.entries, language) ?? []),
      ];
      if (payloads.length === 0) return;
      const key = `${sessionId}:${update.entries[0]!.at}:${update.entries[0]!.turn}`;
      await this.enqueue(sessionId, conversation, key, payloads);
    } catch (error) {
      this.#logger.error(
        `Queueing an operator's message for the channel of session ${sessionId} failed`,
        error,
      );
    }
  }

  /**
   * An operator is typing to a session: when it came from a channel that shows typing, the platform's
   * indicator is sent now (a hint, not queued: one that does not arrive is not retried).
   */
  async operatorTyping(sessionId: string): Promise<void> {
    try {
      const conversation = await this.store.conversationOf(sessionId);
      const channel = conversation && this.channels.get(conversation.channel);
      if (!conversation || !channel?.capabilities.typing) return;
      await channel.send(conversation, { type: 'typing' });
    } catch {
      // Only a hint.
    }
  }

  /** Forgets a deleted or expired session's channel identity and undelivered messages. */
  async forget(sessionIds: readonly string[]): Promise<void> {
    await this.store.deleteSessions(sessionIds);
  }

  /** The outbox counts the gauge reports (before each scrape). */
  async refreshMetrics(): Promise<void> {
    try {
      this.metrics.setOutbox(await this.store.counts());
    } catch (error) {
      this.#logger.error('Counting the channel outbox failed', error);
    }
  }

  /** Stops the delivery loop (shutdown). */
  stop(): void {
    this.delivery.stop();
    this.#stopping = Promise.all(
      this.#listeners
        .splice(0)
        .map((listener) =>
          listener
            .stop()
            .catch((error) => this.#logger.error('Stopping a channel that fetches updates failed', error)),
        ),
    ).then(() => {});
  }

  /** Waits for the sends in progress and the polling channels' last update, so none is left half-done. */
  async settle(): Promise<void> {
    await this.#stopping;
    await this.#acknowledged.settle();
    await this.delivery.settle();
  }
}
