import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Options of `writeFileAtomic`. */
export interface WriteFileAtomicOptions {
  /** Permissions of a new file (an existing file keeps its own). Default: 0o644 less the umask. */
  mode?: number;
}

/**
 * Writes `text` to `path` atomically: into a temporary file beside it (same directory, so the same
 * file system), flushed to disk, then renamed over `path`. A reader (the dev server's watcher, an
 * editor, `git`) sees the old content or the new, never a half-written file, and a crash mid-write
 * leaves the old file intact. An existing file keeps its permissions exactly (a 0600 tree stays
 * 0600, whatever the umask); a new one gets `options.mode`.
 */
export function writeFileAtomic(path: string, text: string, options: WriteFileAtomicOptions = {}): void {
  const temporary = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  let mode: number | null = options.mode ?? null;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    // A new file.
  }
  const fd = openSync(temporary, 'wx', mode ?? 0o644);
  try {
    // The umask narrows the mode `open` creates with: set the mode to keep exactly.
    if (mode !== null) fchmodSync(fd, mode);
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  // The rename itself is durable once the directory is flushed (where the platform allows it).
  try {
    const directory = openSync(dirname(path), 'r');
    try {
      fsyncSync(directory);
    } finally {
      closeSync(directory);
    }
  } catch {
    // Not every platform can open a directory to flush it.
  }
}
