import { type FSWatcher, unwatchFile, watch, watchFile } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Quiet time after the last event before a change is reported, in milliseconds. */
const SETTLE_MS = 60;
/** Polling interval when the file system cannot be watched, in milliseconds. */
export const WATCH_POLL_MS = 1000;

/**
 * Calls `onChange` (debounced) whenever one of `files` changes on disk, until the returned function is
 * called. It watches each file's **directory** (fs.watch), not the file: a file replaced by a rename —
 * an atomic save by the editor, vim, `git checkout` — is still followed, where a watch on the file
 * itself would stay on the replaced inode. Where fs.watch is not available (some network and
 * container file systems) it falls back to polling the files' stat every second (`polling: true`
 * asks for that from the start).
 */
export function watchFiles(
  files: readonly string[],
  onChange: () => void,
  options: { polling?: boolean; pollMs?: number } = {},
): () => void {
  let timer: NodeJS.Timeout | undefined;
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, SETTLE_MS);
  };
  const byDirectory = new Map<string, Set<string>>();
  for (const file of files) {
    const names = byDirectory.get(dirname(file)) ?? new Set<string>();
    names.add(basename(file));
    byDirectory.set(dirname(file), names);
  }
  const watchers: FSWatcher[] = [];
  const polled: string[] = [];
  for (const [directory, names] of byDirectory) {
    if (options.polling) {
      for (const name of names) poll(`${directory}/${name}`);
      continue;
    }
    try {
      const watcher = watch(directory, (_event, name) => {
        // Without a name (some platforms), any change in the directory may be ours.
        if (name === null || names.has(String(name))) changed();
      });
      watcher.on('error', () => {
        watcher.close();
        for (const name of names) poll(`${directory}/${name}`);
      });
      watchers.push(watcher);
    } catch {
      for (const name of names) poll(`${directory}/${name}`);
    }
  }
  function poll(file: string) {
    if (polled.includes(file)) return;
    polled.push(file);
    watchFile(file, { interval: options.pollMs ?? WATCH_POLL_MS, persistent: false }, (current, previous) => {
      if (
        current.mtimeMs !== previous.mtimeMs ||
        current.size !== previous.size ||
        current.ino !== previous.ino
      )
        changed();
    });
  }
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
    for (const file of polled) unwatchFile(file);
  };
}
