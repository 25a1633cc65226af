/** A push-to-pull queue: the turn pushes events, the consumer of `stream()` pulls them. */
export class EventChannel<T> implements AsyncIterable<T> {
  readonly #buffer: T[] = [];
  #waiting: ((result: IteratorResult<T>) => void) | null = null;
  #closed = false;
  readonly #onCancel: () => void;

  /** @param onCancel Called when the consumer stops iterating before the end. */
  constructor(onCancel: () => void) {
    this.#onCancel = onCancel;
  }

  push(value: T): void {
    if (this.#closed) return;
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = null;
      resolve({ value, done: false });
    } else this.#buffer.push(value);
  }

  close(): void {
    this.#closed = true;
    if (this.#waiting && this.#buffer.length === 0) {
      this.#waiting({ value: undefined, done: true });
      this.#waiting = null;
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.#buffer.length) return Promise.resolve({ value: this.#buffer.shift()!, done: false });
        if (this.#closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.#waiting = resolve;
        });
      },
      return: () => {
        if (!this.#closed) this.#onCancel();
        this.#closed = true;
        this.#buffer.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
