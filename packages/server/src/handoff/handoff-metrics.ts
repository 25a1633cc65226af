import type { HandoffOutcome, OpenQueueTally } from '@treeagent/core/adapter';
import { Counter, Histogram, LabeledGauge, type MetricsRegistry } from '../metrics/prometheus.js';

/** Seconds a session waited for its first operator: 10 s to 4 h. */
const WAIT_BUCKETS = [10, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14_400];

/**
 * The handoff metrics: queue length and oldest wait per queue and status (gauges, refreshed from the
 * queue store before each scrape, so every process reports the shared queue), handoffs started and
 * ended (counters, per process), and the wait before the first claim (histogram, per process).
 */
export class HandoffMetrics {
  readonly started: Counter;
  readonly ended: Counter;
  readonly wait: Histogram;
  /** Webhook delivery attempts by result: `delivered`, `retried` (failed, tried again later), `dead` (given up). */
  readonly deliveries: Counter;
  #tallies: OpenQueueTally[] = [];
  #outbox: { pending: number; dead: number } | null = null;

  constructor(registry: MetricsRegistry, now: () => number = Date.now) {
    this.started = registry.register(
      new Counter('treeagent_handoffs_started_total', 'Sessions handed to people, by queue.'),
    );
    this.ended = registry.register(
      new Counter(
        'treeagent_handoffs_ended_total',
        'Handoffs ended, by queue and outcome (handed-back, closed, user-returned).',
      ),
    );
    this.wait = registry.register(
      new Histogram(
        'treeagent_handoff_wait_seconds',
        'Seconds from the handoff to the first claim, by queue.',
        WAIT_BUCKETS,
      ),
    );
    this.deliveries = registry.register(
      new Counter(
        'treeagent_handoff_webhook_deliveries_total',
        'Webhook delivery attempts, by result (delivered, retried, dead: given up after the last attempt).',
      ),
    );
    registry.register(
      new LabeledGauge(
        'treeagent_handoff_webhook_outbox',
        'Webhook events in the outbox, by status (pending: to deliver; dead: given up, see the logs).',
        () =>
          this.#outbox
            ? [
                { labels: { status: 'pending' }, value: this.#outbox.pending },
                { labels: { status: 'dead' }, value: this.#outbox.dead },
              ]
            : [],
      ),
    );
    registry.register(
      new LabeledGauge(
        'treeagent_handoff_queue_length',
        'Handed-off sessions now, by queue and status (waiting, claimed).',
        () => this.#tallies.map(({ queue, status, count }) => ({ labels: { queue, status }, value: count })),
      ),
    );
    registry.register(
      new LabeledGauge(
        'treeagent_handoff_oldest_wait_seconds',
        'Seconds the oldest waiting (unclaimed) session has waited, by queue.',
        () =>
          this.#tallies
            .filter((tally) => tally.status === 'waiting')
            .map(({ queue, oldestSince }) => ({
              labels: { queue },
              value: Math.max(0, (now() - Date.parse(oldestSince)) / 1000),
            })),
      ),
    );
  }

  /** The open handoffs the gauges report, counted by queue and status (set before each scrape). */
  setQueue(tallies: OpenQueueTally[]): void {
    this.#tallies = tallies;
  }

  /** The outbox's counts the gauge reports (set before each scrape; `null`: no webhook). */
  setOutbox(counts: { pending: number; dead: number } | null): void {
    this.#outbox = counts;
  }

  recordStart(queue: string): void {
    this.started.inc({ queue });
  }

  recordEnd(queue: string, outcome: HandoffOutcome): void {
    this.ended.inc({ queue, outcome });
  }

  recordFirstClaim(queue: string, since: string, now = Date.now()): void {
    this.wait.observe({ queue }, Math.max(0, (now - Date.parse(since)) / 1000));
  }
}
