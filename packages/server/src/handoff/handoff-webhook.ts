import { createHmac, randomUUID } from 'node:crypto';
import type { HandoffOutcome, OperatorRef } from '@treeagent/core';
import type { ServerLogger } from '../errors/error-response.js';

/** Where the server tells a helpdesk about handoffs (option `handoff.webhook` of `createApp`). */
export interface HandoffWebhookOptions {
  /** The endpoint (HTTPS in production). */
  url: string;
  /** The HMAC-SHA256 key of the signature; share it with the receiver only. */
  secret: string;
  /** Attempts per event, the first included. Default 6 (then the failure is logged). */
  maxAttempts?: number;
  /** Delay before the first retry; it doubles each time (with jitter), up to 60 s. Default 1000 ms. */
  retryDelayMs?: number;
  /** How long one attempt may take. Default 10 000 ms. */
  timeoutMs?: number;
  /** The fetch to use (tests, proxies). Default the global `fetch`. */
  fetch?: typeof fetch;
}

/** The body of a webhook delivery. */
export interface HandoffWebhookEvent {
  /** Unique per event, the same on every retry: the `Idempotency-Key` (deduplicate on it). */
  id: string;
  type: 'handoff.started' | 'handoff.ended';
  /** ISO timestamp of the transition. */
  at: string;
  sessionId: string;
  queue: string;
  reason: string;
  summary: string | null;
  /** `handoff.ended`: how (`handed-back`, `closed`, `user-returned`) and by whom. */
  outcome?: HandoffOutcome;
  operator?: OperatorRef | null;
}

/** Header with the signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-TreeAgent-Signature';

/** The signature header value of `body` at `timestamp` (seconds), as a receiver recomputes it. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/**
 * Delivers handoff events to a webhook: signed (HMAC-SHA256 over the timestamp and the body),
 * with an idempotency key, retried with exponential backoff on network errors, timeouts, 429 and
 * 5xx (a 4xx other than 429 is final). Deliveries run in the background and never delay the user or
 * the operator; retries in progress are lost if the process stops (the receiver deduplicates by id,
 * so replaying is safe).
 */
export class HandoffWebhook {
  readonly #options: Required<Omit<HandoffWebhookOptions, 'fetch'>> & { fetch: typeof fetch };
  readonly #logger: ServerLogger;
  readonly #pending = new Set<Promise<void>>();
  #stopped = false;

  constructor(options: HandoffWebhookOptions, logger: ServerLogger) {
    if (!/^https?:\/\//.test(options.url)) {
      throw new Error(`handoff.webhook.url must be an http(s) URL, got ${JSON.stringify(options.url)}.`);
    }
    if (!options.secret || options.secret.length < 16) {
      throw new Error(
        'handoff.webhook.secret must have at least 16 characters (a random string shared with the receiver).',
      );
    }
    this.#options = {
      url: options.url,
      secret: options.secret,
      maxAttempts: options.maxAttempts ?? 6,
      retryDelayMs: options.retryDelayMs ?? 1000,
      timeoutMs: options.timeoutMs ?? 10_000,
      fetch: options.fetch ?? fetch,
    };
    this.#logger = logger;
  }

  /** Sends `event` in the background (an id is added); resolves at once. */
  send(event: Omit<HandoffWebhookEvent, 'id'>): void {
    if (this.#stopped) return;
    const delivery = this.#deliver({ id: randomUUID(), ...event }).finally(() =>
      this.#pending.delete(delivery),
    );
    this.#pending.add(delivery);
  }

  /** Waits for the deliveries in progress (tests, shutdown); `stop` abandons their retries. */
  async settle(options: { stop?: boolean } = {}): Promise<void> {
    if (options.stop) this.#stopped = true;
    await Promise.allSettled([...this.#pending]);
  }

  async #deliver(event: HandoffWebhookEvent): Promise<void> {
    const body = JSON.stringify(event);
    const { maxAttempts, retryDelayMs, timeoutMs, url, secret } = this.#options;
    let problem = '';
    for (let attempt = 1; attempt <= maxAttempts && !this.#stopped; attempt++) {
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
        if (response.ok) return;
        problem = `HTTP ${response.status}`;
        if (response.status < 500 && response.status !== 429) break;
      } catch (error) {
        problem =
          (error as Error).name === 'TimeoutError'
            ? `no answer in ${timeoutMs} ms`
            : (error as Error).message;
      }
      if (attempt < maxAttempts) {
        const delay = Math.min(retryDelayMs * 2 ** (attempt - 1), 60_000);
        await new Promise((resolve) => setTimeout(resolve, delay * (0.75 + Math.random() * 0.5)).unref?.());
      }
    }
    this.#logger.error(
      `The handoff webhook ${url} did not accept ${event.type} ${event.id} (session ${event.sessionId}): ${problem}. The helpdesk may miss this handoff.`,
    );
  }
}
