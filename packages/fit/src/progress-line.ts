import type { FitProgress } from './fit-settings.js';

/** Where and when `stderrProgress` draws. */
export interface ProgressLineOptions {
  /** Default `process.stderr`. */
  stream?: { write(text: string): unknown; isTTY?: boolean };
  /** Nothing is drawn before the fit has lasted this long. Default 1000 ms. */
  afterMs?: number;
  /** Clock (tests). Default `performance.now`. */
  now?: () => number;
}

const WIDTH = 24;

/**
 * A progress bar for a fit, drawn only once it has lasted more than a second: redrawn in place on a
 * terminal (`label [#####-----] 45% pca`), one line per quarter otherwise (logs stay readable).
 */
export function progressLine(
  label: string,
  options: ProgressLineOptions = {},
): (progress: FitProgress) => void {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? (() => performance.now());
  const afterMs = options.afterMs ?? 1000;
  const started = now();
  let lastQuarter = -1;
  let drawn = false;
  return ({ phase, done, total }) => {
    const finished = done >= total;
    if (!drawn && now() - started < afterMs) return;
    const share = total > 0 ? Math.min(1, done / total) : 1;
    const percent = Math.round(share * 100);
    if (stream.isTTY) {
      const filled = Math.round(share * WIDTH);
      stream.write(
        `\r${label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${percent}% ${phase}${finished ? '\n' : ''}`,
      );
      drawn = true;
      return;
    }
    const quarter = Math.floor(share * 4);
    if (quarter === lastQuarter && !finished) return;
    if (finished && lastQuarter === 4) return;
    lastQuarter = finished ? 4 : quarter;
    stream.write(`${label}: ${percent}% (${phase})\n`);
    drawn = true;
  };
}
