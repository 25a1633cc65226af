import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The compiled bandwidth reference of the exploration benchmark: `sequential-read.c`, compiled with
 * `gcc -O3 -march=native` into a temporary directory at run time, run as a long-lived process that
 * holds an array of the size the explore step reads. Each `round()` asks it for one plain sequential
 * sum, one float32 dot pass and one sign-bit pass (over codes of one bit per value) and returns their
 * times, measured inside the C process (no process start or pipe in the figure): wall time, and the
 * C thread's CPU time beside it (`CRound.cpu`), the figure to compare on a loaded machine.
 */
const SOURCE = fileURLToPath(new URL('./sequential-read.c', import.meta.url));

/** One round of the C reference, in milliseconds. */
export interface CRound {
  /** Plain sequential sum of every float32 value (the read limit). */
  sum: number;
  /** Row-major float32 dot pass, one score per chunk (the engine's computation, compiled). */
  dot: number;
  /** Sign-bit pass: Hamming distance and histogram over one bit per dimension per chunk (the engine's pass on large trees). */
  sign: number;
  /**
   * The same three passes in CPU time of the C thread (`CLOCK_THREAD_CPUTIME_ID`): on a machine
   * shared with other work the wall times above include preemption, these do not.
   */
  cpu: { sum: number; dot: number; sign: number };
}

export interface CReference {
  /** The compiler line, for the report. */
  compiler: string;
  round(): Promise<CRound>;
  close(): void;
}

/**
 * Compiles and starts the reference for `chunks` × `dimensions` float32 values. Returns the reason
 * instead when it cannot (no gcc on the machine, compilation failed), so the benchmark can fall
 * back to its JavaScript reference and say so.
 */
export async function startCReference(
  chunks: number,
  dimensions: number,
): Promise<CReference | { unavailable: string }> {
  let version: string;
  try {
    version = execFileSync('gcc', ['--version'], { encoding: 'utf8' }).split('\n')[0]!.trim();
  } catch (error) {
    return {
      unavailable: `gcc not found (${(error as NodeJS.ErrnoException).code ?? String(error)}): install gcc (Debian: \`apt-get install gcc\`) for the compiled reference`,
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'treeagent-bench-c-'));
  const binary = join(dir, 'sequential-read');
  const flags = ['-O3', '-march=native'];
  try {
    execFileSync('gcc', [...flags, '-o', binary, SOURCE, '-lm'], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { unavailable: `gcc could not compile bench/lib/sequential-read.c: ${stderr || String(error)}` };
  }
  const child: ChildProcessWithoutNullStreams = spawn(binary, [String(chunks), String(dimensions)]);
  let buffered = '';
  const waiting: { resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
  let failure: Error | null = null;
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => {
    stderr += data.toString();
  });
  child.stdout.on('data', (data: Buffer) => {
    buffered += data.toString();
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      waiting.shift()?.resolve(line);
      newline = buffered.indexOf('\n');
    }
  });
  child.on('exit', (code, signal) => {
    failure = new Error(
      `the C reference (bench/lib/sequential-read.c) exited (${signal ?? `code ${code}`})${stderr ? `: ${stderr.trim()}` : ''}`,
    );
    for (const { reject } of waiting.splice(0)) reject(failure);
  });
  const nextLine = () =>
    failure
      ? Promise.reject(failure)
      : new Promise<string>((resolve, reject) => waiting.push({ resolve, reject }));
  const cleanup = () => {
    child.stdin.end();
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ready = await nextLine();
    if (ready !== 'ready')
      throw new Error(`the C reference printed ${JSON.stringify(ready)} instead of "ready"`);
  } catch (error) {
    cleanup();
    return { unavailable: (error as Error).message };
  }
  return {
    compiler: `${version}, ${flags.join(' ')}`,
    async round() {
      const line = nextLine();
      child.stdin.write('r\n');
      const [sum, dot, sign, , sumCpu, dotCpu, signCpu] = (await line).split(' ').map(Number);
      const values = [sum, dot, sign, sumCpu, dotCpu, signCpu];
      if (!values.every((value) => Number.isFinite(value)))
        throw new Error(`the C reference printed an unreadable round: ${await line}`);
      return { sum: sum!, dot: dot!, sign: sign!, cpu: { sum: sumCpu!, dot: dotCpu!, sign: signCpu! } };
    },
    close: cleanup,
  };
}
