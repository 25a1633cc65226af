import type { ChannelDelivery, ChannelStore, FileStore } from '@treeagent/core/adapter';
import {
  type Channel,
  type ChannelSend,
  ChannelSendError,
  type ChannelSendProgress,
} from '@treeagent/core/adapter';
import type { ServerLogger } from '../errors/error-response.js';
import { DrainLoop } from '../outbox/drain-loop.js';
import { loggedUpdateId } from './channel-inbox-worker.js';
import type { ChannelMetrics } from './channel-metrics.js';
import type { MessagingChannels } from './channels-options.js';

/** At most this many messages per lease. */
const BATCH = 50;
/** Longest delay between two attempts of one message. */
const MAX_RETRY_DELAY_MS = 5 * 60_000;
/**
 * A lease lasts this many timeouts (and 5 s): a long answer sent piece by piece may take longer than
 * one timeout while it progresses, and another process must not take it meanwhile.
 */
const LEASE_TIMEOUTS = 4;

/**
 * Sends the channel outbox: leases due messages (one per conversation at a time, so a conversation's
 * messages go out in order), waits for the channel's send rate, sends, and records the outcome. A
 * 429 or a 5xx is retried with exponential backoff, after the platform's `Retry-After` when it gave
 * one (and the whole channel waits that long); another refusal, or the last attempt, dead-letters
 * the message: kept, logged (ids, never the text), counted, and retried by an admin. Every process
 * may run the loop: the store's lease gives a message to one of them at a time, and a message leased
 * by a process that died is sent after its lease.
 *
 * A message the channel sends as several platform messages (a long text) keeps its progress across
 * its attempts in this process: a retry skips the pieces the platform took (`ChannelSendProgress`),
 * and the timeout counts from the last piece taken, so a slow platform is not sent the same pieces
 * again while it is still taking them. (After a crash, or when another process takes the message over
 * after its lease, the message is sent from its first piece: at least once.)
 */
export class ChannelDeliveryLoop {
  readonly #store: ChannelStore;
  readonly #channels: ReadonlyMap<string, Channel>;
  readonly #files: FileStore;
  readonly #logger: ServerLogger;
  readonly #metrics: ChannelMetrics;
  readonly #maxAttempts: number;
  readonly #retryDelayMs: number;
  readonly #timeoutMs: number;
  readonly #pollMs: number;
  readonly #intervalMs: (channel: string) => number;
  /** Per channel: when the next send may start (the rate limit, and a 429's pause). */
  readonly #nextSlot = new Map<string, number>();
  /** Per outbox message being tried: platform messages of it the platform took so far. */
  readonly #piecesSent = new Map<string, number>();
  readonly #loop: DrainLoop;

  constructor(init: {
    store: ChannelStore;
    channels: ReadonlyMap<string, Channel>;
    files: FileStore;
    logger: ServerLogger;
    metrics: ChannelMetrics;
    options: MessagingChannels;
  }) {
    const { options } = init;
    this.#store = init.store;
    this.#channels = init.channels;
    this.#files = init.files;
    this.#logger = init.logger;
    this.#metrics = init.metrics;
    this.#maxAttempts = Math.max(1, options.maxAttempts ?? 8);
    this.#retryDelayMs = options.retryDelayMs ?? 1000;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#pollMs = options.pollMs ?? 1000;
    this.#loop = new DrainLoop(() => this.#drain(), this.#pollMs);
    const rates = options.sendsPerSecond ?? 20;
    this.#intervalMs = (channel) => {
      const rate = typeof rates === 'number' ? rates : (rates[channel] ?? 20);
      return rate > 0 ? 1000 / rate : 0;
    };
  }

  /** Starts the loop (and sends what the outbox already holds, e.g. after a restart). */
  start(): void {
    this.#loop.start();
  }

  /** Looks for due messages now (after some were added). */
  poke(): void {
    this.#loop.poke();
  }

  /** Ends the loop (shutdown); messages in flight finish, or are sent after their lease by a process that runs the loop. */
  stop(): void {
    this.#loop.stop();
  }

  /** Waits for the sends in progress (tests, shutdown). */
  async settle(): Promise<void> {
    await this.#loop.settle();
  }

  async #drain(): Promise<void> {
    try {
      for (;;) {
        const leased = await this.#store.lease(new Date(), BATCH, LEASE_TIMEOUTS * this.#timeoutMs + 5000);
        if (leased.length === 0 || this.#loop.stopped) return;
        await Promise.all(leased.map((delivery) => this.#attempt(delivery)));
        if (this.#loop.stopped) return;
      }
    } catch (error) {
      this.#logger.error('Reading the channel outbox failed; the next poll retries', error);
    }
  }

  /** Waits until the channel may send again, and books the next slot. */
  async #slot(channel: string): Promise<void> {
    const now = Date.now();
    const start = Math.max(now, this.#nextSlot.get(channel) ?? 0);
    this.#nextSlot.set(channel, start + this.#intervalMs(channel));
    if (start > now) await new Promise((resolve) => setTimeout(resolve, start - now));
  }

  async #attempt(delivery: ChannelDelivery): Promise<void> {
    const name = delivery.conversation.channel;
    const channel = this.#channels.get(name);
    let failure: ChannelSendError;
    if (!channel) {
      failure = new ChannelSendError(
        `there is no channel "${name}" in this server's configuration (add it, or retry the message after fixing the configuration)`,
        { retryable: false },
      );
    } else {
      try {
        await this.#slot(name);
        const message = await this.#resolve(delivery);
        await this.#sendWithProgress(delivery.id, (progress) =>
          channel.send(delivery.conversation, message, progress),
        );
        this.#piecesSent.delete(delivery.id);
        await this.#store.delivered(delivery.id);
        this.#metrics.deliveries.inc({ channel: name, result: 'delivered' });
        return;
      } catch (error) {
        failure =
          error instanceof ChannelSendError
            ? error
            : new ChannelSendError((error as Error)?.message ?? String(error), {
                retryable: true,
                cause: error,
              });
      }
    }
    await this.#failed(delivery, failure).catch((error) =>
      // The lease ends by itself: the message is tried again then.
      this.#logger.error(
        `Recording the failed send of channel message ${loggedUpdateId(delivery.id)} failed`,
        error,
      ),
    );
  }

  async #failed(delivery: ChannelDelivery, failure: ChannelSendError): Promise<void> {
    const name = delivery.conversation.channel;
    const now = new Date();
    if (!failure.retryable || delivery.attempts >= this.#maxAttempts) {
      // An admin's retry sends it whole again.
      this.#piecesSent.delete(delivery.id);
      await this.#store.failed(delivery.id, failure.message, null, now);
      this.#metrics.deliveries.inc({ channel: name, result: 'dead' });
      this.#logger.error(
        `Channel "${name}" did not take message ${loggedUpdateId(delivery.id)} (session ${delivery.sessionId}) after ${delivery.attempts} attempt(s): ${failure.message}. It is dead-lettered (treeagent_channel_outbox{status="dead"}); an admin finds it in GET /api/v1/channels/dead-letters (by its session) and retries it with POST /api/v1/channels/dead-letters/<id>/retry.`,
      );
      return;
    }
    const backoff =
      Math.min(this.#retryDelayMs * 2 ** (delivery.attempts - 1), MAX_RETRY_DELAY_MS) *
      (0.75 + Math.random() * 0.5);
    const delay = failure.retryAfterMs ?? backoff;
    // The platform asked the whole bot to wait: no send on this channel before then.
    if (failure.retryAfterMs !== null)
      this.#nextSlot.set(name, Math.max(this.#nextSlot.get(name) ?? 0, now.getTime() + failure.retryAfterMs));
    await this.#store.failed(delivery.id, failure.message, new Date(now.getTime() + delay), now);
    this.#metrics.deliveries.inc({ channel: name, result: 'retried' });
    // Sooner than the next poll: come back on time.
    if (delay < this.#pollMs) setTimeout(() => this.poke(), delay + 5).unref?.();
  }

  /**
   * One attempt of a send, with its progress: it skips the pieces earlier attempts delivered, and
   * fails (aborting the channel's requests) when no piece was taken for the timeout.
   */
  #sendWithProgress(id: string, send: (progress: ChannelSendProgress) => Promise<void>): Promise<void> {
    const controller = new AbortController();
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          const error = new ChannelSendError(`no answer in ${this.#timeoutMs} ms`, { retryable: true });
          controller.abort(error);
          reject(error);
        }, this.#timeoutMs);
      };
      const progress: ChannelSendProgress = {
        skip: this.#piecesSent.get(id) ?? 0,
        sent: (count) => {
          if (controller.signal.aborted) return;
          this.#piecesSent.set(id, Math.max(count, this.#piecesSent.get(id) ?? 0));
          arm();
        },
        signal: controller.signal,
      };
      arm();
      send(progress)
        .then(resolve, reject)
        .finally(() => clearTimeout(timer));
    });
  }

  /** The payload as the channel sends it: a file's bytes read from the file store. */
  async #resolve(delivery: ChannelDelivery): Promise<ChannelSend> {
    const payload = delivery.payload;
    if (payload.type !== 'file') return payload;
    let data: Uint8Array;
    try {
      data = await this.#files.read(payload.file.id);
    } catch (error) {
      throw new ChannelSendError(
        `file ${payload.file.id} is no longer in the file store (deleted or expired): it cannot be sent`,
        { retryable: false, cause: error },
      );
    }
    return { type: 'file', file: payload.file, data, caption: payload.caption ?? null };
  }
}
