/** Where commands write: stdout for results, stderr for diagnostics (injectable for tests). */
export interface Output {
  log(line: string): void;
  /** Writes text without a line break (streamed tokens). */
  write(text: string): void;
  error(line: string): void;
}

export const consoleOutput: Output = {
  log: (line) => process.stdout.write(`${line}\n`),
  write: (text) => process.stdout.write(text),
  error: (line) => process.stderr.write(`${line}\n`),
};
