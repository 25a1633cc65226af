import v8 from 'node:v8';
import vm from 'node:vm';

/** Summary of a set of timings, in the unit of the samples (milliseconds throughout the suite). */
export interface Stats {
  n: number;
  median: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
}

/** Median, p99 (nearest rank), mean, min and max of `samples`. */
export function summarize(samples: readonly number[]): Stats {
  if (samples.length === 0)
    return { n: 0, median: Number.NaN, p99: Number.NaN, mean: Number.NaN, min: 0, max: 0 };
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  const median = n % 2 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    n,
    median,
    p99: quantile(sorted, 0.99),
    mean: sum / n,
    min: sorted[0]!,
    max: sorted[n - 1]!,
  };
}

/** Nearest-rank quantile of an ascending array. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1]!;
}

export interface MeasureOptions {
  /** Calls run first and thrown away (JIT, caches, lazy loading). */
  warmup: number;
  /** Calls timed, one sample each. */
  samples: number;
}

/** Times `fn` once per sample after `warmup` untimed calls; `fn` receives the call's index (warm-up included). */
export async function measure(
  fn: (index: number) => unknown,
  { warmup, samples }: MeasureOptions,
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await fn(warmup + i);
    out.push(performance.now() - started);
  }
  return out;
}

/** Synchronous variant of `measure`, for tight loops where an `await` per call would be noise. */
export function measureSync(fn: (index: number) => unknown, { warmup, samples }: MeasureOptions): number[] {
  for (let i = 0; i < warmup; i++) fn(i);
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    fn(warmup + i);
    out.push(performance.now() - started);
  }
  return out;
}

let sunk = 0;

/** Keeps a computed value alive, so the optimiser cannot drop the computation being timed. */
export function consume(value: number | ArrayLike<number>): void {
  sunk += typeof value === 'number' ? value : (value[0] ?? 0);
}

/** The sum of everything consumed (print or return it once, so the sink itself stays live). */
export function consumed(): number {
  return sunk;
}

/** Milliseconds with a precision that suits their size. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return '—';
  if (value >= 100) return `${value.toFixed(0)} ms`;
  if (value >= 10) return `${value.toFixed(1)} ms`;
  if (value >= 1) return `${value.toFixed(2)} ms`;
  return `${(value * 1000).toFixed(0)} µs`;
}

/** A ratio as `0.123×` (three significant digits). */
export function times(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return `${value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value >= 1 ? value.toFixed(2) : value.toPrecision(2)}×`;
}

/** Bytes as B, KB, MB or GB (powers of 1024). */
export function bytes(value: number): string {
  if (!Number.isFinite(value)) return '—';
  const units = ['B', 'KB', 'MB', 'GB'];
  let size = value;
  let unit = 0;
  while (Math.abs(size) >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit++;
  }
  return `${size >= 100 || unit === 0 ? size.toFixed(0) : size.toFixed(1)} ${units[unit]}`;
}

let gc: (() => void) | null | undefined;

/** Runs a full garbage collection (between measured blocks, so one block's garbage is not collected in the next). */
export function collectGarbage(): void {
  if (gc === undefined) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (exposed) gc = exposed;
    else {
      try {
        // Without --expose-gc: expose it now and fetch it from a fresh context.
        v8.setFlagsFromString('--expose-gc');
        gc = vm.runInNewContext('gc') as () => void;
      } catch {
        gc = null;
      }
    }
  }
  gc?.();
}
