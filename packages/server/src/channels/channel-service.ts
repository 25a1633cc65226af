import { randomBytes, randomUUID } from 'node:crypto';
import type { AgentOutput, FileMetadata, TreeAgent } from '@treeagent/core';
import type {
  ChannelConversation,
  ChannelInbox,
  ChannelInboxEntry,
  ChannelPayload,
  ChannelStore,
  HandoffUpdate,
} from '@treeagent/core/adapter';
import {
  AttachmentTooLargeError,
  type Channel,
  type ChannelListener,
  type InboundMessage,
  optionOfAnswer,
  payloadsOfOutput,
} from '@treeagent/core/adapter';
import { type ResolvedLimits, resolveLimits } from '../app-options.js';
import { hashSecret } from '../auth/secrets.js';
import type { SessionTokens } from '../auth/session-tokens.js';
import { ApiError } from '../errors/api-error.js';
import type { ServerLogger } from '../errors/error-response.js';
import { serverMessage } from '../i18n/server-messages.js';
import type { MetricsRegistry } from '../metrics/prometheus.js';
import { TurnRunner } from '../turns/turn-runner.js';
import { ChannelDeliveryLoop } from './channel-delivery.js';
import { ChannelInboxWorker, loggedUpdateId } from './channel-inbox-worker.js';
import { ChannelMetrics } from './channel-metrics.js';
import { payloadsOfHandoffEntries } from './channel-payloads.js';
import { ChannelSatisfaction, type ChannelSatisfactionStores } from './channel-satisfaction.js';
import type { MessagingChannels } from './channels-options.js';

/** A channel session's id: random, kept in the channel store (the platform's ids never appear in it). */
const newSessionId = () => `ch-${randomUUID()}`;

/**
 * Most the turn waits for the platform to take the typing indicator: it goes out before the answer
 * (Messenger shows the last of the two it got), yet a slow platform holds the answer no longer.
 */
const TYPING_WAIT_MS = 2000;

/** The web chat's limits on files that channel files keep too. */
export type ChannelFileLimits = Pick<
  ResolvedLimits,
  'maxUploadBytes' | 'sessionQuotaBytes' | 'totalQuotaBytes' | 'maxAttachments'
>;

/** A file the user sent that was not stored, and why (the key of the user's notice in the `server` catalogs). */
interface RefusedFile {
  name: string;
  why: 'fileTooLarge' | 'fileNoRoom' | 'fileNotReceived' | 'fileTooMany';
}

/**
 * The server's side of the channel seam (docs/channels.md): reads verified webhook requests, maps each
 * platform conversation to its session, puts each message in the durable inbox before the platform is
 * answered, runs one turn per message from the inbox (`ChannelInboxWorker`) with the platform's
 * message id as its receipt (a redelivery runs nothing), and puts what the turn and the operators
 * send in the durable outbox that `ChannelDeliveryLoop` sends.
 */
export class ChannelService {
  readonly store: ChannelStore;
  readonly channels: ReadonlyMap<string, Channel>;
  readonly delivery: ChannelDeliveryLoop;
  readonly inbox: ChannelInbox;
  readonly worker: ChannelInboxWorker;
  readonly metrics: ChannelMetrics;
  readonly maxBodyBytes: number;
  readonly #agent: TreeAgent;
  readonly #runner: TurnRunner;
  readonly #logger: ServerLogger;
  readonly #tokens: SessionTokens;
  readonly #waitMs: number;
  readonly #listeners: ChannelListener[] = [];
  readonly #answersInCommit: boolean;
  #stopping: Promise<void> = Promise.resolve();
  readonly #locale: string;
  readonly #satisfaction: ChannelSatisfaction | null;
  readonly #limits: ChannelFileLimits;

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
    /** The web chat's upload limit and file quotas (option `limits`), which channel files keep too. Default: their defaults. */
    limits?: ChannelFileLimits;
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
    this.#limits = init.limits ?? resolveLimits();
    this.delivery = new ChannelDeliveryLoop({
      store: this.store,
      channels,
      files: agent.fileStore,
      logger: init.logger,
      metrics: this.metrics,
      options,
    });
    const inbox = store.inbox?.();
    if (!inbox)
      throw new TypeError(
        'The channel store keeps no inbox (it has no inbox()): implement ChannelStore.inbox (it passes describeChannelInbox of @treeagent/core/conformance), or use the SQLite, PostgreSQL or in-memory channel store.',
      );
    this.inbox = inbox;
    const settings = options.inbox ?? {};
    this.#waitMs = settings.waitMs ?? 10_000;
    this.worker = new ChannelInboxWorker({
      inbox,
      run: (entry) => this.#run(entry),
      logger: init.logger,
      onGivenUp: (entry) => this.#givenUp(entry),
      settings: {
        maxAttempts: Math.max(1, settings.maxAttempts ?? 5),
        retryDelayMs: settings.retryDelayMs ?? options.retryDelayMs ?? 1000,
        leaseMs: settings.leaseMs ?? 30_000,
        pollMs: options.pollMs ?? 1000,
        concurrency: Math.max(1, settings.concurrency ?? 8),
      },
    });
    this.delivery.start();
    this.worker.start();
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

  /**
   * Puts each message in the inbox, in order, then waits (up to the inbox's `waitMs`) for their turns;
   * throws when one could not be stored, so the platform sends it again.
   */
  async #handleAll(channel: Channel, messages: readonly InboundMessage[]): Promise<void> {
    const stored = await this.#accept(channel, messages);
    const turns = stored.map((messageId) => this.worker.waitFor(channel.name, messageId, this.#waitMs));
    this.worker.poke();
    await Promise.all(turns);
  }

  /**
   * One webhook request of `channel`: 401 when it is not the platform's (nothing stored), the
   * channel's own answer to a handshake, else its messages go in the durable inbox and the platform is
   * answered: at once with the channel's `acknowledgeWith` (Slack), else with 200 once their turns ran
   * (or after the inbox's `waitMs`). Only a message that could not be stored answers 500, so the
   * platform delivers it again.
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
    for (const failure of result.deliveryFailures ?? []) {
      this.metrics.undelivered.inc({ channel: channel.name, code: String(failure.code ?? 'unknown') });
      this.#logger.error(
        `Channel "${channel.name}": message ${failure.messageId} to ${failure.recipient} was not delivered: ${failure.code ?? '?'} ${failure.title}`,
      );
    }
    try {
      if (result.acknowledgeWith) {
        await this.#accept(channel, result.messages);
        this.worker.poke();
        return result.acknowledgeWith;
      }
      await this.#handleAll(channel, result.messages);
    } catch {
      return Response.json(
        {
          error: { code: 'INTERNAL', message: 'The message could not be stored now; deliver it again.' },
        },
        { status: 500 },
      );
    }
    return Response.json({ ok: true });
  }

  /**
   * Writes each new message to the inbox (its files first, into the file store): a message whose
   * receipt is known, or already in the inbox (a redelivery), adds nothing. A file that was not
   * stored (over the limits, or one the platform will not give) leaves a note in the message's text
   * for the agent and the operators, and the user a notice, queued before the message's turn can
   * answer. Returns the message ids stored or found in the inbox (the caller pokes the worker). Throws
   * (logged and counted) when one could not be stored, or a file could not be fetched for now.
   */
  async #accept(channel: Channel, messages: readonly InboundMessage[]): Promise<string[]> {
    const kept: string[] = [];
    for (const message of messages) {
      try {
        if (
          await this.#agent.sessionStore.hasReceipt?.({ channel: channel.name, messageId: message.messageId })
        ) {
          this.metrics.received.inc({ channel: channel.name, result: 'duplicate' });
          continue;
        }
        const conversation: ChannelConversation = { ...message.conversation, channel: channel.name };
        const sessionId = await this.store.sessionOf(conversation, newSessionId(), new Date());
        const { stored: attachments, refused } = await this.#receiveFiles(channel, sessionId, message);
        const notes: string[] = [];
        if (refused.length > 0) {
          const language = await this.#languageOf(sessionId);
          const megabytes = Math.round((this.#limits.maxUploadBytes / 1024 / 1024) * 10) / 10;
          // Queued before the inbox has the message, so it goes out before the answer; its ids are
          // stable, so a redelivery queues it once.
          await this.enqueue(
            sessionId,
            conversation,
            `${channel.name}:${message.messageId}:files`,
            refused.map(({ name, why }) => ({
              type: 'text',
              text: serverMessage(language, `channels.${why}`, {
                name,
                megabytes,
                count: this.#limits.maxAttachments,
              }),
              options: [],
            })),
          );
          for (const { name } of refused) notes.push(serverMessage(language, 'channels.fileNote', { name }));
        }
        const added = await this.inbox.add(
          {
            channel: channel.name,
            messageId: message.messageId,
            sessionId,
            conversation,
            // A NUL character is no text, and neither the engine nor PostgreSQL takes one: a
            // platform's update that holds one would otherwise be refused, and sent again, forever.
            text: withoutNul([message.text, ...notes].filter(Boolean).join('\n')),
            selectedOption: message.selectedOption ? withoutNul(message.selectedOption) : null,
            attachments,
          },
          new Date(),
        );
        if (!added) {
          // Already in the inbox (the platform sent it again): its files were kept the first time.
          for (const file of attachments) await this.#agent.fileStore.delete(file.id).catch(() => {});
          this.metrics.received.inc({ channel: channel.name, result: 'duplicate' });
        }
        kept.push(message.messageId);
      } catch (error) {
        this.metrics.received.inc({ channel: channel.name, result: 'failed' });
        this.#logger.error(
          `Channel "${channel.name}": update ${loggedUpdateId(message.messageId)} could not be put in the inbox; the platform will send it again`,
          error,
        );
        throw error;
      }
    }
    return kept;
  }

  /** The turn of one inbox entry (the worker's): nothing when its receipt shows it ran already. */
  async #run(entry: ChannelInboxEntry): Promise<void> {
    const channel = this.channels.get(entry.channel);
    if (!channel)
      throw new Error(
        `there is no channel "${entry.channel}" in this server's configuration (add it again to run its waiting messages)`,
      );
    const receipt = { channel: channel.name, messageId: entry.messageId };
    const { conversation, sessionId } = entry;
    await this.#register(sessionId);
    if (await this.#agent.sessionStore.hasReceipt?.(receipt)) {
      this.metrics.received.inc({ channel: channel.name, result: 'duplicate' });
      return;
    }
    // After a handoff: the rating asked with buttons 1–5, and its comment, run no turn.
    const rated = await this.#satisfaction?.receive(sessionId, entry.text, entry.selectedOption, () =>
      this.#languageOf(sessionId),
    );
    if (rated) {
      await this.enqueue(sessionId, conversation, `${channel.name}:${entry.messageId}`, rated);
      this.metrics.received.inc({ channel: channel.name, result: 'turn' });
      return;
    }
    if (channel.capabilities.typing && !(await this.#withPeople(sessionId, entry)))
      await this.#typing(channel, conversation);
    const selectedOption = entry.selectedOption ?? (await this.#numberedAnswer(sessionId, entry.text));
    const turn = this.#runner.start({
      sessionId,
      message: entry.text,
      ...(selectedOption ? { selectedOption } : {}),
      attachments: entry.attachments,
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
      `${channel.name}:${entry.messageId}`,
      payloadsOfOutput(output),
    );
  }

  /**
   * A message whose turn was given up (failed the same way each time, or on every attempt): counted,
   * and the user gets the web chat's "something went wrong" in their language instead of silence.
   */
  async #givenUp(entry: ChannelInboxEntry): Promise<void> {
    this.metrics.received.inc({ channel: entry.channel, result: 'failed' });
    const text = serverMessage(await this.#languageOf(entry.sessionId), 'serverError');
    await this.enqueue(entry.sessionId, entry.conversation, `${entry.channel}:${entry.messageId}:failed`, [
      { type: 'text', text, options: [] },
    ]);
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

  /**
   * The "typing…" indicator, before the turn runs: awaited (up to `TYPING_WAIT_MS`), so it reaches the
   * platform before the answer can. Only a hint: one that fails or is late is not retried.
   */
  async #typing(channel: Channel, conversation: ChannelConversation): Promise<void> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new Error('the typing indicator took too long'));
        resolve();
      }, TYPING_WAIT_MS);
    });
    const progress = { skip: 0, sent: () => {}, signal: controller.signal };
    await Promise.race([channel.send(conversation, { type: 'typing' }, progress).catch(() => {}), late]);
    clearTimeout(timer);
  }

  /** Whether people have the session (a handoff): the message goes to them, the agent does not answer it. */
  async #withPeople(sessionId: string, entry: ChannelInboxEntry): Promise<boolean> {
    const handoff = (await this.#agent.inspectSession(sessionId))?.handoff;
    if (!handoff) return false;
    // Choosing the way back to the assistant is a message the agent answers.
    const chosen = (entry.selectedOption ?? entry.text).trim();
    return !(handoff.returnOption && chosen === handoff.returnOption);
  }

  /**
   * The user's files, fetched from the platform and stored in the agent's file store for the session
   * under the web chat's limits: `maxAttachments` per message, `maxUploadBytes` each, and what the
   * session's and the server's quotas leave; a download stops as soon as it passes them (the platform's
   * declared size, or the bytes read), so a large file is never held whole in memory. A file over them
   * is not stored; nor is one the platform will not give (it answered
   * 4xx: Telegram's "file is too big" past 20 MB, a WhatsApp media that is gone): both are returned in
   * `refused` (logged without names or ids). A platform that cannot be reached, or answers 5xx, 408
   * or 429, throws (the files stored so far are deleted), so the message is not stored and the
   * platform sends it again.
   */
  async #receiveFiles(
    channel: Channel,
    sessionId: string,
    message: InboundMessage,
  ): Promise<{ stored: FileMetadata[]; refused: RefusedFile[] }> {
    const stored: FileMetadata[] = [];
    const refused: RefusedFile[] = [];
    const files = this.#agent.fileStore;
    const refuse = (index: number, name: string, why: RefusedFile['why'], detail: string) => {
      refused.push({ name, why });
      this.#logger.error(
        `Channel "${channel.name}": file ${index + 1} of update ${loggedUpdateId(message.messageId)} (session ${sessionId}) was not stored (${detail}); the message runs without it and the user is told`,
      );
    };
    try {
      const { maxAttachments, maxUploadBytes } = this.#limits;
      for (const [index, attachment] of message.attachments.entries()) {
        if (index >= maxAttachments) {
          refuse(index, attachment.name, 'fileTooMany', `over maxAttachments ${maxAttachments}`);
          continue;
        }
        const room = await this.#roomLeft(sessionId);
        if (room <= 0) {
          refuse(index, attachment.name, 'fileNoRoom', 'the file quotas are used up');
          continue;
        }
        const maxBytes = Math.min(maxUploadBytes, room);
        let data: Uint8Array;
        try {
          data = await attachment.download({ maxBytes });
        } catch (error) {
          if (isTransientDownloadError(error)) throw error;
          if (error instanceof AttachmentTooLargeError) {
            // Over the upload limit when the platform's size says so, or the reading stopped there.
            const tooLarge =
              error.bytes === null ? maxBytes === maxUploadBytes : error.bytes > maxUploadBytes;
            const size = error.bytes === null ? `more than ${maxBytes} bytes` : `${error.bytes} bytes`;
            if (tooLarge)
              refuse(
                index,
                attachment.name,
                'fileTooLarge',
                `${size}, over maxUploadBytes ${maxUploadBytes}`,
              );
            else
              refuse(index, attachment.name, 'fileNoRoom', `${size}, over the ${room} the file quotas leave`);
            continue;
          }
          refuse(
            index,
            attachment.name,
            'fileNotReceived',
            `the platform did not give it: ${downloadFailureOf(error)}`,
          );
          continue;
        }
        // A channel that does not keep to `maxBytes` is held to it here.
        if (data.byteLength > maxUploadBytes) {
          refuse(
            index,
            attachment.name,
            'fileTooLarge',
            `${data.byteLength} bytes, over maxUploadBytes ${maxUploadBytes}`,
          );
          continue;
        }
        if (data.byteLength > room) {
          refuse(
            index,
            attachment.name,
            'fileNoRoom',
            `${data.byteLength} bytes, over the ${room} the file quotas leave`,
          );
          continue;
        }
        stored.push(
          await files.put({
            name: attachment.name,
            mimeType: attachment.mimeType,
            data,
            origin: 'chat',
            sessionId,
          }),
        );
      }
    } catch (error) {
      for (const file of stored) await files.delete(file.id).catch(() => {});
      throw error;
    }
    return { stored, refused };
  }

  /** The bytes a file of `sessionId` may take: what the session's and the server's quotas leave (the web chat's `uploadAllowance`). */
  async #roomLeft(sessionId: string): Promise<number> {
    const store = this.#agent.fileStore;
    const { sessionQuotaBytes, totalQuotaBytes } = this.#limits;
    const [sessionUsed, totalUsed] = store.usage
      ? await Promise.all([store.usage(sessionId), store.usage()])
      : [0, 0];
    return Math.max(0, Math.min(sessionQuotaBytes - sessionUsed, totalQuotaBytes - totalUsed));
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

  /** The outbox and inbox counts the gauges report (before each scrape). */
  async refreshMetrics(): Promise<void> {
    try {
      this.metrics.setOutbox(await this.store.counts());
      this.metrics.setInbox(await this.inbox.counts());
    } catch (error) {
      this.#logger.error('Counting the channel outbox and inbox failed', error);
    }
  }

  /** Stops the delivery loop and the inbox worker (shutdown). */
  stop(): void {
    this.delivery.stop();
    this.worker.stop();
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
    await this.worker.settle();
    await this.delivery.settle();
  }
}

/** `text` without NUL characters (U+0000). */
const withoutNul = (text: string) => text.replaceAll('\u0000', '');

/** The HTTP status a failed download names: its `status` or `error_code` (grammY), else "HTTP nnn" in its message. */
function statusOfDownload(error: unknown): number | null {
  const failure = error as { status?: unknown; error_code?: unknown; message?: unknown } | null;
  for (const status of [failure?.status, failure?.error_code])
    if (typeof status === 'number' && status >= 100 && status < 600) return status;
  const named = typeof failure?.message === 'string' ? /\bHTTP (\d{3})\b/.exec(failure.message) : null;
  return named ? Number(named[1]) : null;
}

/** Codes of a platform that could not be reached (Node's sockets and DNS, undici). */
const UNREACHABLE =
  /^(E(CONNRESET|CONNREFUSED|CONNABORTED|TIMEDOUT|PIPE|NOTFOUND|AI_AGAIN|HOSTUNREACH|NETUNREACH)|UND_ERR_\w+)$/;

/**
 * Whether a file's download may work if tried again: an error that says so (`retryable`), a 5xx, 408
 * or 429, a platform that could not be reached, or a timeout. Any other failure (a 4xx, a platform
 * that gave no URL) happens again on every redelivery: the message is stored without the file.
 */
export function isTransientDownloadError(error: unknown): boolean {
  const failure = error as {
    retryable?: unknown;
    name?: unknown;
    message?: unknown;
    code?: unknown;
    cause?: unknown;
  } | null;
  if (typeof failure?.retryable === 'boolean') return failure.retryable;
  const status = statusOfDownload(error);
  if (status !== null) return status >= 500 || status === 408 || status === 429;
  if (failure?.name === 'AbortError' || failure?.name === 'TimeoutError' || failure?.name === 'HttpError')
    return true;
  if (failure?.name === 'TypeError' && failure.message === 'fetch failed') return true;
  const code = failure?.code ?? (failure?.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && UNREACHABLE.test(code);
}

/** What the log says of a permanent download failure: its status or its kind, never its message (it may name the platform's file). */
function downloadFailureOf(error: unknown): string {
  const status = statusOfDownload(error);
  if (status !== null) return `HTTP ${status}`;
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : 'an error';
}
