import { Counter, LabeledGauge, type MetricsRegistry } from '../metrics/prometheus.js';

/**
 * The channel metrics: messages received and sends attempted (counters, per process, by channel and
 * result), the outbox and the inbox (gauges by channel and status, read from the shared store at
 * scrape time).
 */
export class ChannelMetrics {
  /**
   * Webhook requests and messages by result: `turn`, `duplicate` (a redelivery), `rejected` (bad
   * signature), `failed` (not stored in the inbox, or its turn given up after the last attempt).
   */
  readonly received: Counter;
  /** Send attempts by result: `delivered`, `retried`, `dead`. */
  readonly deliveries: Counter;
  /** Messages the platform took, then reported it could not deliver, by channel and the platform's code. */
  readonly undelivered: Counter;
  #outbox: { channel: string; pending: number; dead: number }[] = [];
  #inbox: { channel: string; pending: number; failed: number }[] = [];

  constructor(registry: MetricsRegistry) {
    this.received = registry.register(
      new Counter(
        'treeagent_channel_messages_received_total',
        'Messages received on messaging channels, by channel and result (turn, duplicate: a redelivery that ran nothing, rejected: bad signature, failed: not stored, or its turn given up after the last attempt).',
      ),
    );
    this.deliveries = registry.register(
      new Counter(
        'treeagent_channel_deliveries_total',
        'Send attempts on messaging channels, by channel and result (delivered, retried, dead: given up after the last attempt).',
      ),
    );
    this.undelivered = registry.register(
      new Counter(
        'treeagent_channel_undelivered_total',
        "Messages a platform took, then reported it could not deliver (WhatsApp's failed statuses), by channel and the platform's error code.",
      ),
    );
    registry.register(
      new LabeledGauge(
        'treeagent_channel_outbox',
        'Messages in the channel outbox, by channel and status (pending: to send; dead: given up, an admin may retry them).',
        () =>
          this.#outbox.flatMap(({ channel, pending, dead }) => [
            { labels: { channel, status: 'pending' }, value: pending },
            { labels: { channel, status: 'dead' }, value: dead },
          ]),
      ),
    );
    registry.register(
      new LabeledGauge(
        'treeagent_channel_inbox',
        'Messages in the channel inbox, by channel and status (pending: their turn has not run yet; failed: given up after the last attempt, listed by GET /api/v1/channels/inbox/failures).',
        () =>
          this.#inbox.flatMap(({ channel, pending, failed }) => [
            { labels: { channel, status: 'pending' }, value: pending },
            { labels: { channel, status: 'failed' }, value: failed },
          ]),
      ),
    );
  }

  /** The inbox's counts the gauge reports (set before each scrape). */
  setInbox(counts: { channel: string; pending: number; failed: number }[]): void {
    this.#inbox = counts;
  }

  /** The outbox's counts the gauge reports (set before each scrape). */
  setOutbox(counts: { channel: string; pending: number; dead: number }[]): void {
    this.#outbox = counts;
  }
}
