import { Counter, LabeledGauge, type MetricsRegistry } from '../metrics/prometheus.js';

/**
 * The channel metrics: messages received and sends attempted (counters, per process, by channel and
 * result) and the outbox (gauge by channel and status, read from the shared store at scrape time).
 */
export class ChannelMetrics {
  /** Webhook requests and messages by result: `turn`, `duplicate` (a redelivery), `rejected` (bad signature), `failed`. */
  readonly received: Counter;
  /** Send attempts by result: `delivered`, `retried`, `dead`. */
  readonly deliveries: Counter;
  #outbox: { channel: string; pending: number; dead: number }[] = [];

  constructor(registry: MetricsRegistry) {
    this.received = registry.register(
      new Counter(
        'treeagent_channel_messages_received_total',
        'Messages received on messaging channels, by channel and result (turn, duplicate: a redelivery that ran nothing, rejected: bad signature, failed).',
      ),
    );
    this.deliveries = registry.register(
      new Counter(
        'treeagent_channel_deliveries_total',
        'Send attempts on messaging channels, by channel and result (delivered, retried, dead: given up after the last attempt).',
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
  }

  /** The outbox's counts the gauge reports (set before each scrape). */
  setOutbox(counts: { channel: string; pending: number; dead: number }[]): void {
    this.#outbox = counts;
  }
}
