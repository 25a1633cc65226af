/**
 * Runs tasks one at a time per key, in arrival order; different keys run concurrently.
 * Used to serialise the interactions of one session within a process.
 */
export class KeyedMutex {
  readonly #tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => current);
    this.#tails.set(key, tail);
    try {
      await previous;
      return await task();
    } finally {
      release();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }

  /** Number of keys with a task running or waiting. */
  get size(): number {
    return this.#tails.size;
  }
}
