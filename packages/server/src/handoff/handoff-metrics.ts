import type { HandoffOutcome, QueueEntry } from '@treeagent/core/adapter';
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
  #snapshot: QueueEntry[] = [];
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
        () => {
          const counts = new Map<string, { labels: { queue: string; status: string }; value: number }>();
          for (const entry of this.#snapshot) {
            const key = `${entry.queue}\u0000${entry.status}`;
            const count = counts.get(key) ?? {
              labels: { queue: entry.queue, status: entry.status },
              value: 0,
            };
            count.value++;
            counts.set(key, count);
          }
          return [...counts.values()];
        },
      ),
    );
    registry.register(
      new LabeledGauge(
        'treeagent_handoff_oldest_wait_seconds',
        'Seconds the oldest waiting (unclaimed) session has waited, by queue.',
        () => {
          const oldest = new Map<string, number>();
          for (const entry of this.#snapshot) {
            if (entry.status !== 'waiting') continue;
            const since = Date.parse(entry.since);
            oldest.set(entry.queue, Math.min(oldest.get(entry.queue) ?? since, since));
          }
          return [...oldest].map(([queue, since]) => ({
            labels: { queue },
            value: Math.max(0, (now() - since) / 1000),
          }));
        },
      ),
    );
  }

  /** The open queue entries the gauges report (set before each scrape). */
  setQueue(entries: QueueEntry[]): void {
    this.#snapshot = entries;
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
