import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { TreeAgentError } from '@treeagent/core';

/** How long `withFileLock` waits for another holder before giving up, in milliseconds. */
export const LOCK_TIMEOUT_MS = 10_000;
/** A lock file older than this whose process cannot be checked is taken as abandoned, in milliseconds. */
const STALE_LOCK_MS = 60_000;

/** In this process: the lock of each path, as the tail of a promise chain. */
const held = new Map<string, Promise<unknown>>();

/**
 * Runs `action` holding the lock of `path`: in this process one action at a time per path (a chain of
 * promises), and across processes the lock file `<path>.lock` (created exclusively, holding the pid;
 * removed after; one left by a process that died is taken over). Two `treeagent serve` or `dev`
 * processes saving the same tree therefore never interleave their check and their write.
 */
export async function withFileLock<T>(path: string, action: () => Promise<T> | T): Promise<T> {
  const previous = held.get(path) ?? Promise.resolve();
  const run = previous
    .catch(() => undefined)
    .then(async () => {
      const release = await acquireLockFile(`${path}.lock`);
      try {
        return await action();
      } finally {
        release();
      }
    });
  held.set(path, run);
  try {
    return await run;
  } finally {
    if (held.get(path) === run) held.delete(path);
  }
}

async function acquireLockFile(lockPath: string): Promise<() => void> {
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (abandoned(lockPath)) {
      rmSync(lockPath, { force: true });
      continue;
    }
    if (Date.now() > deadline)
      throw new TreeAgentError(
        'INVALID_INPUT',
        `${lockPath} has been held for over ${LOCK_TIMEOUT_MS / 1000} s by another save (process ${holder(lockPath) ?? 'unknown'}). If no treeagent process is saving this tree, delete ${lockPath} and save again.`,
      );
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

function holder(lockPath: string): number | null {
  try {
    const pid = Number(readFileSync(lockPath, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * The lock was left behind: its process is gone, or is this one (a pid reused after a restart: this
 * process's own saves are already serialised), or it is older than any save takes.
 */
function abandoned(lockPath: string): boolean {
  const pid = holder(lockPath);
  if (pid === process.pid) return true;
  if (pid !== null) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
    }
  }
  try {
    return Date.now() - statSync(lockPath).mtimeMs > STALE_LOCK_MS;
  } catch {
    return false;
  }
}
