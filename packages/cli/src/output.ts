/** Where commands write: stdout for results, stderr for diagnostics (injectable for tests). */
export interface Output {
  log(line: string): void;
  error(line: string): void;
}

export const consoleOutput: Output = {
  log: (line) => process.stdout.write(`${line}\n`),
  error: (line) => process.stderr.write(`${line}\n`),
};
