import { Presets, SingleBar } from 'cli-progress';

/** Where `progressBar` draws (tests pass their own). */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/**
 * A progress bar on stderr for work that takes long; silent for small jobs. On a terminal it is
 * redrawn in place with an estimate of the time left; elsewhere (logs, CI) it writes one plain line
 * per quarter, `label: 50% (112/224)`, with no time estimate (it would be a guess printed forever).
 */
export function progressBar(
  label: string,
  total: number,
  stream: ProgressStream = process.stderr,
): { update(done: number): void; stop(): void } {
  if (total < 50) return { update() {}, stop() {} };
  if (!stream.isTTY) {
    let quarter = 0;
    return {
      update(done) {
        const reached = Math.min(4, Math.floor((done / total) * 4));
        if (reached <= quarter) return;
        quarter = reached;
        stream.write(`${label}: ${Math.round((done / total) * 100)}% (${done}/${total})\n`);
      },
      stop() {},
    };
  }
  const bar = new SingleBar(
    {
      format: `${label} [{bar}] {value}/{total} {eta_formatted}`,
      stream: stream as NodeJS.WriteStream,
      hideCursor: true,
    },
    Presets.shades_classic,
  );
  bar.start(total, 0);
  return { update: (done) => bar.update(done), stop: () => bar.stop() };
}
