import { Presets, SingleBar } from 'cli-progress';

/** A progress bar on stderr for work that takes long; silent for small jobs. */
export function progressBar(label: string, total: number): { update(done: number): void; stop(): void } {
  if (total < 50) return { update() {}, stop() {} };
  const bar = new SingleBar(
    {
      format: `${label} [{bar}] {value}/{total} {eta_formatted}`,
      stream: process.stderr,
      noTTYOutput: true,
      notTTYSchedule: 5000,
      hideCursor: true,
    },
    Presets.shades_classic,
  );
  bar.start(total, 0);
  return { update: (done) => bar.update(done), stop: () => bar.stop() };
}
