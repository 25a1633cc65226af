import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { cleanupsAfterEach } from '../../core/src/test-support/cleanups-after-each.js';
import { SqliteSessionStore } from './sqlite-session-store.js';
import { SqliteVectorStore } from './sqlite-vector-store.js';
import { integrityCheck, tempDir } from './test-support/temp-dir.js';

const SCRIPT = fileURLToPath(new URL('./test-support/commit-loop.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
// Long enough that the test would time out waiting for it: a dead holder must be detected, not waited for.
const LEASE_MS = 60_000;

const cleanups = cleanupsAfterEach();

/** Starts the commit loop and kills it with SIGKILL once it has acknowledged `turns` more turns. */
async function runAndKill(file: string, turns: number): Promise<{ acks: number[]; vectors: number[] }> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', SCRIPT, file, 's', String(LEASE_MS)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  cleanups.push(() => void child.kill('SIGKILL'));
  const acks: number[] = [];
  const vectors: number[] = [];
  let stderr = '';
  child.stderr!.on('data', (data) => {
    stderr += String(data);
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  await new Promise<void>((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (data) => {
      buffered += String(data);
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith('ack ')) acks.push(Number(line.slice(4)));
        if (line.startsWith('vector ')) vectors.push(Number(line.slice(7)));
      }
      if (acks.length >= turns && !child.killed) {
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.on('exit', () => reject(new Error(`the child exited before being killed: ${stderr}`)));
  }).catch(async (error) => {
    if (child.killed) return;
    throw error;
  });
  expect(await exited).toBe('SIGKILL');
  return { acks, vectors };
}

describe('kill -9', () => {
  test('every acknowledged turn survives SIGKILL, the file passes integrity_check and the dead holder’s lock is taken over at once', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const file = join(dir, 'treeagent.db');

    const firstRun = await runAndKill(file, 40);
    // The second run takes over the dead holder's lock at once, and continues from the last commit.
    const secondRun = await runAndKill(file, 25);
    // Right after the kill, long before its lease runs out, the killed holder's lock is taken over:
    // its process is gone on this machine.
    const store = new SqliteSessionStore(file, { lock: { timeoutMs: 100 } });
    cleanups.push(() => store.close());
    await (await store.lock('s'))();

    const acknowledged = [...firstRun.acks, ...secondRun.acks];
    // Each run acknowledges consecutive turns; the second starts right after the first run's last
    // commit, which may be one turn past its last acknowledgement (committed, killed before printing).
    const consecutive = (list: number[]) => list.every((turn, i) => i === 0 || turn === list[i - 1]! + 1);
    expect(firstRun.acks[0]).toBe(1);
    expect(consecutive(firstRun.acks) && consecutive(secondRun.acks)).toBe(true);
    expect(secondRun.acks[0]! - firstRun.acks.at(-1)!).toBeGreaterThanOrEqual(1);
    expect(secondRun.acks[0]! - firstRun.acks.at(-1)!).toBeLessThanOrEqual(2);

    expect(integrityCheck(file)).toBe('ok');
    const record = (await store.load('s'))!;
    const last = acknowledged.at(-1)!;
    // A commit may have landed after the last ack was printed, never before.
    expect(record.turn).toBeGreaterThanOrEqual(last);
    expect(record.turn).toBeLessThanOrEqual(last + 1);
    expect(record).toMatchObject({
      version: record.turn,
      lastNodeId: record.turn,
      state: { turn: record.turn },
    });
    const history = await store.history('s');
    expect(history.map((entry) => entry.content?.split(' ').slice(0, 2).join(' '))).toEqual(
      Array.from({ length: record.turn }, (_, i) => [`user ${i + 1}`, `assistant ${i + 1}`]).flat(),
    );
    expect(history.every((entry) => entry.role === 'user' || entry.content!.endsWith('y'.repeat(3000)))).toBe(
      true,
    );
    const vectors = new SqliteVectorStore(file);
    cleanups.push(() => vectors.close());
    const stored = new Set(await vectors.ids('c'));
    expect([...firstRun.vectors, ...secondRun.vectors].filter((id) => !stored.has(id))).toEqual([]);
  }, 60_000);
});
