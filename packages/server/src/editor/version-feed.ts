import type { TreeEditorSource } from './tree-editor-source.js';

/** How often the version on disk is polled when the source cannot watch it, in milliseconds. */
export const VERSION_POLL_MS = 1000;

/**
 * The versions of the editor's file on disk, for the pages that follow them (`GET /api/v1/editor/events`):
 * one watch of the source shared by every subscriber (`TreeEditorSource.watch`, else polling
 * `version()`), started with the first subscriber and stopped with the last. A listener hears each
 * version once, when it differs from the last one heard.
 */
export class VersionFeed {
  readonly #source: TreeEditorSource;
  readonly #pollMs: number;
  readonly #listeners = new Set<(version: string) => void>();
  #stop: (() => void) | null = null;
  #last: string | null = null;

  constructor(source: TreeEditorSource, pollMs = VERSION_POLL_MS) {
    this.#source = source;
    this.#pollMs = pollMs;
  }

  /** Calls `listener` with every new version from now on; returns the unsubscribe function. */
  subscribe(listener: (version: string) => void): () => void {
    this.#listeners.add(listener);
    if (!this.#stop) this.#start();
    return () => {
      this.#listeners.delete(listener);
      if (!this.#listeners.size) {
        this.#stop?.();
        this.#stop = null;
        this.#last = null;
      }
    };
  }

  /** Tells the subscribers about `version` (a save already knows it: no need to wait for the watch). */
  publish(version: string): void {
    if (version === this.#last) return;
    this.#last = version;
    for (const listener of [...this.#listeners]) listener(version);
  }

  #start(): void {
    if (this.#source.watch) {
      this.#stop = this.#source.watch((version) => this.publish(version));
      return;
    }
    let polling = false;
    const timer = setInterval(() => {
      if (polling) return;
      polling = true;
      this.#source
        .version()
        .then((version) => this.publish(version))
        // A file that cannot be read now (being replaced, deleted) is reported by the next poll.
        .catch(() => undefined)
        .finally(() => {
          polling = false;
        });
    }, this.#pollMs);
    timer.unref?.();
    this.#stop = () => clearInterval(timer);
  }
}
