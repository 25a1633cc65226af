import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What every benchmark receives from `run.ts`. */
export interface BenchContext {
  /** The smoke version: tiny sizes and sample counts, a few seconds in all. */
  quick: boolean;
  log: (line: string) => void;
  /** A fresh temporary directory for this benchmark's files (removed by `run.ts`). */
  tmp: string;
  /** `--chunks=100000,1000000`: the tree sizes of the exploration benchmark (all of them when absent). */
  chunks?: number[];
  /**
   * `--no-calibration`: the exploration benchmarks load their synthetic trees without calibrating
   * thresholds (the calibration of 1,011 routing nodes is most of a cold load at 1M); the report says so.
   */
  noCalibration?: boolean;
  /**
   * `--cold-start`: the vector-store exploration benchmark removes the manifest of its collection
   * before the first start, which then compares every stored record and calibrates (a first start).
   */
  coldStart?: boolean;
  /** `--nodes=200,2000`: the trees of the engine-overhead benchmark (all three when absent). */
  nodes?: number[];
}

/** One goal of the issue, with the figure measured in this run. */
export interface Goal {
  benchmark: string;
  goal: string;
  measured: string;
  /** `null` when the run could not decide (skipped, quick run). */
  met: boolean | null;
}

/** What a benchmark returns: its Markdown section of RESULTS.md, its raw data for results.json, its goals. */
export interface Section {
  id: string;
  title: string;
  markdown: string;
  data: unknown;
  goals: Goal[];
}

/** A Markdown table. */
export function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const line = (cells: readonly (string | number)[]) =>
    `| ${cells.map((cell) => String(cell)).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** `✅ met` / `❌ missed` / `— n/a`. */
export function verdict(met: boolean | null): string {
  return met === null ? '— n/a' : met ? '✅ met' : '❌ missed';
}

/** Runs `body` with a temporary directory, removed afterwards. */
export async function withTempDir<T>(prefix: string, body: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), `treeagent-bench-${prefix}-`));
  try {
    return await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
