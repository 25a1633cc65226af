import type { Output } from '../output.js';

/**
 * An `Output` that keeps what a command writes, for tests: `out` (stdout: `log` and `write`), `err`
 * (stderr: `error`) and `lines`, both in the order written.
 */
export function capture(): Output & { out: string[]; err: string[]; lines: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const lines: string[] = [];
  return {
    out,
    err,
    lines,
    log: (line) => {
      out.push(line);
      lines.push(line);
    },
    write: (text) => {
      out.push(text);
      lines.push(text);
    },
    error: (line) => {
      err.push(line);
      lines.push(line);
    },
  };
}
