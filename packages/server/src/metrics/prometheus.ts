/** Labels of one series: label name → value. */
export type Labels = Record<string, string>;

interface Metric {
  render(): string[];
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function formatLabels(labels: Labels, extra: Labels = {}): string {
  const all = { ...labels, ...extra };
  const parts = Object.entries(all).map(([name, value]) => `${name}="${escapeLabel(value)}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}

function formatNumber(value: number): string {
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return Number.isNaN(value) ? 'NaN' : String(value);
}

function header(name: string, help: string, type: string): string[] {
  return [`# HELP ${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${name} ${type}`];
}

/** Series keyed by their label values, in a stable order. */
class Series<T> {
  readonly #entries = new Map<string, { labels: Labels; value: T }>();

  get(labels: Labels, create: () => T): T {
    const key = JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));
    let entry = this.#entries.get(key);
    if (!entry) {
      entry = { labels, value: create() };
      this.#entries.set(key, entry);
    }
    return entry.value;
  }

  entries(): { labels: Labels; value: T }[] {
    return [...this.#entries.values()];
  }
}

/** A monotonically increasing count. */
export class Counter implements Metric {
  readonly #series = new Series<{ value: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  inc(labels: Labels = {}, amount = 1): void {
    this.#series.get(labels, () => ({ value: 0 })).value += amount;
  }

  /** The current value of one series (0 when it was never incremented). */
  value(labels: Labels = {}): number {
    return this.#series.get(labels, () => ({ value: 0 })).value;
  }

  render(): string[] {
    return [
      ...header(this.name, this.help, 'counter'),
      ...this.#series
        .entries()
        .map(({ labels, value }) => `${this.name}${formatLabels(labels)} ${formatNumber(value.value)}`),
    ];
  }
}

/** A value read when the metrics are scraped. */
export class Gauge implements Metric {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly read: () => number,
  ) {}

  render(): string[] {
    return [...header(this.name, this.help, 'gauge'), `${this.name} ${formatNumber(this.read())}`];
  }
}

/** Values per label set, read when the metrics are scraped (e.g. a queue's length per queue). */
export class LabeledGauge implements Metric {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly read: () => { labels: Labels; value: number }[],
  ) {}

  render(): string[] {
    return [
      ...header(this.name, this.help, 'gauge'),
      ...this.read().map(({ labels, value }) => `${this.name}${formatLabels(labels)} ${formatNumber(value)}`),
    ];
  }
}

/** Observations counted in cumulative buckets, with their sum and count. */
export class Histogram implements Metric {
  readonly #series = new Series<{ buckets: number[]; sum: number; count: number }>();
  readonly buckets: readonly number[];

  constructor(
    readonly name: string,
    readonly help: string,
    buckets: readonly number[],
  ) {
    this.buckets = [...buckets].sort((a, b) => a - b);
  }

  observe(labels: Labels, value: number): void {
    const series = this.#series.get(labels, () => ({
      buckets: new Array<number>(this.buckets.length).fill(0),
      sum: 0,
      count: 0,
    }));
    this.buckets.forEach((bound, index) => {
      if (value <= bound) series.buckets[index]! += 1;
    });
    series.sum += value;
    series.count += 1;
  }

  render(): string[] {
    const lines = header(this.name, this.help, 'histogram');
    for (const { labels, value } of this.#series.entries()) {
      this.buckets.forEach((bound, index) => {
        lines.push(
          `${this.name}_bucket${formatLabels(labels, { le: formatNumber(bound) })} ${value.buckets[index]}`,
        );
      });
      lines.push(`${this.name}_bucket${formatLabels(labels, { le: '+Inf' })} ${value.count}`);
      lines.push(`${this.name}_sum${formatLabels(labels)} ${formatNumber(value.sum)}`);
      lines.push(`${this.name}_count${formatLabels(labels)} ${value.count}`);
    }
    return lines;
  }
}

/** Content type of the Prometheus text exposition format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** A set of metrics rendered together in the Prometheus text exposition format (0.0.4). */
export class MetricsRegistry {
  readonly #metrics: Metric[] = [];

  register<M extends Metric>(metric: M): M {
    this.#metrics.push(metric);
    return metric;
  }

  render(): string {
    return `${this.#metrics.flatMap((metric) => metric.render()).join('\n')}\n`;
  }
}
