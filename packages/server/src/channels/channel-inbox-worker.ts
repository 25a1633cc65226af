import { createHash } from 'node:crypto';
import type { ChannelInbox, ChannelInboxEntry } from '@treeagent/core/adapter';
import type { ServerLogger } from '../errors/error-response.js';
import { DrainLoop } from '../outbox/drain-loop.js';

/** How the inbox worker retries (the `inbox*` options of the channels, docs/channels.md). */
export interface ChannelInboxSettings {
  /** Attempts per message, the first included; then it is given up (`failed`, kept for staff). */
  maxAttempts: number;
  /** Delay before the first retry; it doubles each time (with jitter), up to 5 minutes. */
  retryDelayMs: number;
  /** How long an entry is leased (renewed while its turn runs): a process that died holding it gives it up after this long. */
  leaseMs: number;
  /** How often the worker looks for due entries. */
  pollMs: number;
  /** Most turns the worker runs at once (each of another conversation). */
  concurrency: number;
}

/** Longest delay between two attempts of one message. */
const MAX_RETRY_DELAY_MS = 5 * 60_000;
/** The longest reason kept with a failed entry. */
const MAX_REASON = 500;

const keyOf = (channel: string, messageId: string) => `${channel}\u0000${messageId}`;

/**
 * Engine codes that fail the same way on every attempt (the tree's callbacks and data, not a store or
 * a model that is down): retrying runs a callback's side effects again and then fails anyway.
 */
const PERMANENT_CODES = new Set([
  'CALLBACK_ERROR',
  'INVALID_CALLBACK_OUTPUT',
  'INVALID_INPUT',
  'INVALID_STEP',
  'LOOP',
  'UNKNOWN_LINK',
  'UNKNOWN_NODE',
  'UNKNOWN_FILE',
  'TREE_VALIDATION',
  'MODEL_NOT_CONFIGURED',
  'FILTER',
]);

/**
 * Whether a turn's failure may pass if the turn runs again: everything but the engine's codes that
 * fail the same way each time (`CALLBACK_ERROR`, `INVALID_INPUT`…). A store outage, a model or an
 * embedder that failed, a timeout, a shutdown, or an error without a code are retried.
 */
export function isTransientTurnError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return !(typeof code === 'string' && PERMANENT_CODES.has(code));
}

/**
 * A platform's update id as the logs show it: a short hash, the same on every line and redelivery,
 * so an id that carries personal data (a WhatsApp `wamid` encodes the phone number) never appears
 * in a log, whatever the channel (docs/channels.md, "Privacy").
 */
export function loggedUpdateId(messageId: string): string {
  return `#${createHash('sha256').update(messageId).digest('base64url').slice(0, 12)}`;
}

/**
 * Runs the turns of the channel inbox (docs/channels.md, "The inbox"): leases due entries (one per
 * conversation at a time, so a conversation's messages run in order), runs each one's turn with
 * `run`, and removes it from the inbox when the turn ran. A transient failure is retried with
 * exponential backoff; one that fails the same way each time (`isTransientTurnError`) is not. After
 * the last attempt the entry is given up (`failed`, with its reason), logged with its session and the
 * hash of its update id (never its text nor the platform's id) and handed to `onGivenUp` (the user is
 * told, the metrics count it). Every process may run a worker: the store's lease gives an entry
 * to one of them at a time, and an entry leased by a process that died is taken again after its lease.
 */
export class ChannelInboxWorker {
  readonly #inbox: ChannelInbox;
  readonly #run: (entry: ChannelInboxEntry) => Promise<void>;
  readonly #logger: ServerLogger;
  readonly #onGivenUp: (entry: ChannelInboxEntry) => void | Promise<void>;
  readonly #settings: ChannelInboxSettings;
  readonly #loop: DrainLoop;
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #waiters = new Map<string, Set<() => void>>();

  constructor(init: {
    inbox: ChannelInbox;
    /** Runs an entry's turn; throws when it failed (the entry is then retried or given up). */
    run: (entry: ChannelInboxEntry) => Promise<void>;
    logger: ServerLogger;
    /** Called when an entry is given up (the metrics, the user's notice); a failure of it is logged. */
    onGivenUp: (entry: ChannelInboxEntry) => void | Promise<void>;
    settings: ChannelInboxSettings;
  }) {
    this.#inbox = init.inbox;
    this.#run = init.run;
    this.#logger = init.logger;
    this.#onGivenUp = init.onGivenUp;
    this.#settings = init.settings;
    this.#loop = new DrainLoop(() => this.#drain(), init.settings.pollMs);
  }

  /** Starts the worker; what the inbox already holds (after a restart) runs at once, or after its lease. */
  start(): void {
    this.#loop.start();
  }

  /** Looks for due entries now (after one was added). */
  poke(): void {
    this.#loop.poke();
  }

  /**
   * Resolves once this process has made an attempt at the entry (its turn ran, or failed and waits
   * for its retry), or after `timeoutMs` (another process may have taken it): the webhook of a
   * platform that waits for the turn answers then.
   */
  waitFor(channel: string, messageId: string, timeoutMs: number): Promise<void> {
    const key = keyOf(channel, messageId);
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(key) ?? new Set<() => void>();
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0 && this.#waiters.get(key) === waiters) this.#waiters.delete(key);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      timer.unref?.();
      waiters.add(done);
      this.#waiters.set(key, waiters);
    });
  }

  /** Ends the worker (shutdown): turns in progress finish; what is left runs after the restart. */
  stop(): void {
    this.#loop.stop();
  }

  /** Waits for the turns in progress. */
  async settle(): Promise<void> {
    await this.#loop.settle();
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight.values()]);
  }

  async #drain(): Promise<void> {
    try {
      const free = this.#settings.concurrency - this.#inFlight.size;
      if (free <= 0 || this.#loop.stopped) return;
      const leased = await this.#inbox.lease(new Date(), free, this.#settings.leaseMs);
      for (const entry of leased) {
        const key = keyOf(entry.channel, entry.messageId);
        // Still running here after its lease ended: the running attempt finishes it.
        if (this.#inFlight.has(key)) continue;
        const attempt = this.#attempt(entry).finally(() => {
          this.#inFlight.delete(key);
          for (const resolve of [...(this.#waiters.get(key) ?? [])]) resolve();
          this.poke();
        });
        this.#inFlight.set(key, attempt);
      }
    } catch (error) {
      this.#logger.error('Reading the channel inbox failed; the next poll retries', error);
    }
  }

  async #attempt(entry: ChannelInboxEntry): Promise<void> {
    // While the turn runs, its lease is renewed every third of it: only a dead process's entry expires.
    const { leaseMs } = this.#settings;
    const renewal = setInterval(
      () => {
        this.#inbox
          .renew(entry.channel, entry.messageId, new Date(Date.now() + leaseMs))
          .catch((error) =>
            this.#logger.error(
              `Renewing the lease of inbox update ${loggedUpdateId(entry.messageId)} failed`,
              error,
            ),
          );
      },
      Math.max(1, Math.floor(leaseMs / 3)),
    );
    renewal.unref?.();
    try {
      await this.#run(entry);
    } catch (error) {
      await this.#failed(entry, error).catch((failure) =>
        // The lease ends by itself: the entry is taken again then.
        this.#logger.error(
          `Recording the failed turn of update ${loggedUpdateId(entry.messageId)} of channel "${entry.channel}" failed`,
          failure,
        ),
      );
      return;
    } finally {
      clearInterval(renewal);
    }
    await this.#inbox.done(entry.channel, entry.messageId).catch((error) =>
      // The turn is committed with its receipt: taken again, the entry runs nothing and goes.
      this.#logger.error(
        `Removing update ${loggedUpdateId(entry.messageId)} of channel "${entry.channel}" from the inbox failed; it is taken again after its lease and runs nothing`,
        error,
      ),
    );
  }

  async #failed(entry: ChannelInboxEntry, error: unknown): Promise<void> {
    const reason = reasonOf(error);
    const now = new Date();
    const where = `Channel "${entry.channel}": the turn of update ${loggedUpdateId(entry.messageId)} (session ${entry.sessionId})`;
    const transient = isTransientTurnError(error);
    if (!transient || entry.attempts >= this.#settings.maxAttempts) {
      // Told before the entry leaves the line: the conversation's next message cannot answer first.
      try {
        await this.#onGivenUp(entry);
      } catch (failure) {
        this.#logger.error(`${where}: telling the user it was given up failed`, failure);
      }
      await this.#inbox.failed(entry.channel, entry.messageId, reason, null, now);
      this.#logger.error(
        `${where} failed ${entry.attempts} time(s): ${reason}.${transient ? '' : ' Not retried: it fails the same way each time.'} It is given up and kept in the inbox as failed (GET /api/v1/channels/inbox/failures lists it); the user is told something went wrong.`,
      );
      return;
    }
    const delay =
      Math.min(this.#settings.retryDelayMs * 2 ** (entry.attempts - 1), MAX_RETRY_DELAY_MS) *
      (0.75 + Math.random() * 0.5);
    await this.#inbox.failed(entry.channel, entry.messageId, reason, new Date(now.getTime() + delay), now);
    this.#logger.error(
      `${where} failed (attempt ${entry.attempts}); retried in ${Math.round(delay)} ms`,
      error,
    );
    if (delay < this.#settings.pollMs) setTimeout(() => this.poke(), delay + 5).unref?.();
  }
}

/** What is kept of a failure: its code and message, cut short (never the message text of the user). */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  const message = (error as Error)?.message ?? String(error);
  const reason = typeof code === 'string' ? `${code}: ${message}` : message;
  return reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason;
}
