import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../core/src/test-support/cleanups-after-each.js';
import { PostgresSessionStore } from './index.js';
import { testAgent } from './test-support/agent.js';
import { requireDatabase, TEST_DATABASE_URL, testSchema } from './test-support/database.js';

const script = fileURLToPath(new URL('./test-support/commit-loop.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const cleanups = cleanupsAfterEach();
beforeEach(requireDatabase);

/** Starts the child, waits for `acks` acknowledged turns, SIGKILLs it; returns the last acknowledged turn. */
async function runAndKill(schema: string, sessionId: string, acks: number): Promise<number> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', script, TEST_DATABASE_URL, schema, sessionId],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  let last = 0;
  let count = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${acks} acks in time; stderr: ${stderr}`)), 30_000);
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const turn = Number(/^ack (\d+)$/.exec(line)?.[1]);
        // Lines already in the pipe when the kill is sent are not acknowledgements the test waited for.
        if (!turn || count >= acks) return;
        last = turn;
        // Kill at once when enough turns are acknowledged: the loop is then in its next turn.
        if (++count === acks) {
          child.kill('SIGKILL');
          clearTimeout(timer);
          resolve();
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        if (count < acks) reject(new Error(`the child exited (${code}) early; stderr: ${stderr}`));
      });
    });
  } finally {
    child.kill('SIGKILL');
  }
  expect(await exited).toBe('SIGKILL');
  return last;
}

describe('a server process killed with SIGKILL mid-way', () => {
  it('loses no acknowledged interaction, leaves the history well formed and frees the session lock', async () => {
    const { schema, drop } = testSchema('kill');
    const store = new PostgresSessionStore({ connection: TEST_DATABASE_URL, schema });
    cleanups.push(async () => {
      await store.close();
      await drop();
    });
    let acknowledged = 0;
    for (const acks of [12, 7, 20]) {
      const last = await runAndKill(schema, 'k', acks);
      expect(last).toBe(acknowledged + acks);
      acknowledged = last;
      const record = (await store.load('k'))!;
      // Every acknowledged turn is there; at most the one in flight was committed too.
      expect(record.turn).toBeGreaterThanOrEqual(acknowledged);
      expect(record.turn).toBeLessThanOrEqual(acknowledged + 1);
      expect(record).toMatchObject({ version: record.turn, state: { count: record.turn } });
      const history = await store.history('k');
      expect(history).toHaveLength(2 * record.turn);
      history.forEach((entry, i) => {
        expect(entry.turn).toBe(Math.floor(i / 2) + 1);
        expect(entry.role).toBe(i % 2 === 0 ? 'user' : 'assistant');
      });
      acknowledged = record.turn;
      // The dead process's advisory lock went with its connection.
      const release = await store.lock('k', AbortSignal.timeout(10_000));
      await release();
    }
    const output = await testAgent({ name: 'survivor', sessionStore: store }).send('k', 'alpha');
    expect(output.turn).toBe(acknowledged + 1);
  }, 90_000);
});
