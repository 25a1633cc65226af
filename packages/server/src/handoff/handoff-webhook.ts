import { createHmac } from 'node:crypto';
import type { HandoffEvent, HandoffOutbox, OutboxDelivery } from '@treeagent/core/adapter';
import type { ServerLogger } from '../errors/error-response.js';
import { DrainLoop } from '../outbox/drain-loop.js';
import type { HandoffMetrics } from './handoff-metrics.js';

/** Where the server tells a helpdesk about handoffs (option `handoff.webhook` of `createApp`). */
export interface HandoffWebhookOptions {
  /** The endpoint (HTTPS in production). */
  url: string;
  /** The HMAC-SHA256 key of the signature; share it with the receiver only. */
  secret: string;
  /** Attempts per event, the first included. Default 6 (then the event is dead-lettered and logged). */
  maxAttempts?: number;
  /** Delay before the first retry; it doubles each time (with jitter), up to 60 s. Default 1000 ms. */
  retryDelayMs?: number;
  /** How long one attempt may take. Default 10 000 ms. */
  timeoutMs?: number;
  /** How often the delivery loop looks for due events in the outbox. Default 1000 ms. */
  pollMs?: number;
  /** The fetch to use (tests, proxies). Default the global `fetch`. */
  fetch?: typeof fetch;
}

/** The body of a webhook delivery (`HandoffEvent` of `@treeagent/core/adapter`). */
export type HandoffWebhookEvent = HandoffEvent;

/** Header with the signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-TreeAgent-Signature';

/** The signature header value of `body` at `timestamp` (seconds), as a receiver recomputes it. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** At most this many events per lease. */
const BATCH = 20;

/**
 * Delivers the outbox's handoff events to a webhook: signed (HMAC-SHA256 over the timestamp and
 * the body), with the event's id as idempotency key, retried with exponential backoff on network
 * errors, timeouts, 429 and 5xx (another 4xx is final). The events wait in a durable outbox (written
 * with the transition itself when the session store has one), so a delivery pending when the process
 * stops is made by the next process that runs the loop; each process may run it: a lease gives each
 * event to one of them at a time. After `maxAttempts` the event is dead-lettered: kept in the outbox,
 * counted by the metrics and logged. Nothing here delays the user or the operator.
 */
export class HandoffWebhook {
  readonly outbox: HandoffOutbox;
  readonly #options: Required<Omit<HandoffWebhookOptions, 'fetch'>> & { fetch: typeof fetch };
  readonly #logger: ServerLogger;
  readonly #metrics: HandoffMetrics;
  readonly #loop: DrainLoop;

  constructor(
    options: HandoffWebhookOptions,
    outbox: HandoffOutbox,
    logger: ServerLogger,
    metrics: HandoffMetrics,
  ) {
    if (!/^https?:\/\//.test(options.url)) {
      throw new Error(`handoff.webhook.url must be an http(s) URL, got ${JSON.stringify(options.url)}.`);
    }
    if (!options.secret || options.secret.length < 16) {
      throw new Error(
        'handoff.webhook.secret must have at least 16 characters (a random string shared with the receiver).',
      );
    }
    this.outbox = outbox;
    this.#options = {
      url: options.url,
      secret: options.secret,
      maxAttempts: Math.max(1, options.maxAttempts ?? 6),
      retryDelayMs: options.retryDelayMs ?? 1000,
      timeoutMs: options.timeoutMs ?? 10_000,
      pollMs: options.pollMs ?? 1000,
      fetch: options.fetch ?? fetch,
    };
    this.#logger = logger;
    this.#metrics = metrics;
    this.#loop = new DrainLoop(() => this.#drain(), this.#options.pollMs);
  }

  /** Starts the delivery loop (and delivers what the outbox already holds, e.g. after a restart). */
  start(): void {
    this.#loop.start();
  }

  /** Looks for due events now (after a commit added some). */
  poke(): void {
    this.#loop.poke();
  }

  /** Ends the loop at once (shutdown): attempts in progress finish or, cut short, are retried after their lease by a process that runs the loop. */
  stop(): void {
    this.#loop.stop();
  }

  /** Waits for the attempts in progress (tests, shutdown); `stop` also ends the loop (pending events stay in the outbox). */
  async settle(options: { stop?: boolean } = {}): Promise<void> {
    if (options.stop) this.stop();
    await this.#loop.settle();
  }

  async #drain(): Promise<void> {
    try {
      for (;;) {
        const leased = await this.outbox.lease(new Date(), BATCH, this.#options.timeoutMs + 5000);
        if (leased.length === 0 || this.#loop.stopped) return;
        await Promise.all(leased.map((delivery) => this.#attempt(delivery)));
        if (leased.length < BATCH) return;
      }
    } catch (error) {
      this.#logger.error('Reading the handoff webhook outbox failed; the next poll retries', error);
    }
  }

  async #attempt(delivery: OutboxDelivery): Promise<void> {
    const { event, attempts } = delivery;
    const { url, secret, timeoutMs, maxAttempts, retryDelayMs } = this.#options;
    const body = JSON.stringify(event);
    let problem: string;
    let final = false;
    try {
      const response = await this.#options.fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Idempotency-Key': event.id,
          'X-TreeAgent-Event': event.type,
          [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, Math.floor(Date.now() / 1000), body),
        },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel().catch(() => {});
      if (response.ok) {
        await this.outbox.delivered(event.id);
        this.#metrics.deliveries.inc({ result: 'delivered' });
        return;
      }
      problem = `HTTP ${response.status}`;
      final = response.status < 500 && response.status !== 429;
    } catch (error) {
      problem =
        (error as Error).name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : (error as Error).message;
    }
    try {
      if (final || attempts >= maxAttempts) {
        await this.outbox.failed(event.id, problem, null);
        this.#metrics.deliveries.inc({ result: 'dead' });
        this.#logger.error(
          `The handoff webhook ${url} did not accept ${event.type} ${event.id} (session ${event.sessionId}) after ${attempts} attempt(s): ${problem}. It is dead-lettered in the outbox (treeagent_handoff_webhook_outbox{status="dead"}); the helpdesk may miss this handoff.`,
        );
      } else {
        const delay = Math.min(retryDelayMs * 2 ** (attempts - 1), 60_000) * (0.75 + Math.random() * 0.5);
        await this.outbox.failed(event.id, problem, new Date(Date.now() + delay));
        this.#metrics.deliveries.inc({ result: 'retried' });
        // Sooner than the next poll: come back on time.
        if (delay < this.#options.pollMs) setTimeout(() => this.poke(), delay + 5).unref?.();
      }
    } catch (error) {
      // The lease ends by itself: the event is tried again then.
      this.#logger.error(`Recording the webhook attempt of ${event.id} failed`, error);
    }
  }
}
