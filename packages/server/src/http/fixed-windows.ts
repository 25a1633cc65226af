import { ApiError, type UserMessage } from '../errors/api-error.js';

/** A per-key count over fixed windows of time: the counter behind the server's rate limits. */
export class FixedWindows {
  readonly #windows = new Map<string, { start: number; count: number }>();
  readonly #windowMs: number;
  readonly #max: number;
  readonly #now: () => number;
  #lastSweep: number;

  constructor(options: { windowMs: number; max: number }, now: () => number = Date.now) {
    this.#windowMs = options.windowMs;
    this.#max = options.max;
    this.#now = now;
    this.#lastSweep = now();
  }

  /** Adds one to `key`'s count; returns the seconds until its window ends when the count is over `max`. */
  add(key: string): number | null {
    const window = this.#current(key, true)!;
    window.count += 1;
    return window.count > this.#max ? this.#retryAfter(window) : null;
  }

  /** Takes one back from `key`'s count (what `add` counted turned out not to count), if its window still runs. */
  remove(key: string): void {
    const window = this.#current(key, false);
    if (window && window.count > 0) window.count -= 1;
  }

  /** The seconds until `key`'s window ends when its count already reached `max`, else `null`. */
  exceeded(key: string): number | null {
    const window = this.#current(key, false);
    return window && window.count >= this.#max ? this.#retryAfter(window) : null;
  }

  #current(key: string, create: boolean): { start: number; count: number } | undefined {
    const time = this.#now();
    if (time - this.#lastSweep > this.#windowMs) {
      for (const [k, window] of this.#windows)
        if (time - window.start >= this.#windowMs) this.#windows.delete(k);
      this.#lastSweep = time;
    }
    let window = this.#windows.get(key);
    if (window && time - window.start >= this.#windowMs) {
      this.#windows.delete(key);
      window = undefined;
    }
    if (!window && create) {
      window = { start: time, count: 0 };
      this.#windows.set(key, window);
    }
    return window;
  }

  #retryAfter(window: { start: number }): number {
    return Math.max(1, Math.ceil((window.start + this.#windowMs - this.#now()) / 1000));
  }
}

/** 429 `RATE_LIMITED` with `Retry-After`. */
export function rateLimited(message: string, retryAfter: number, userMessage?: UserMessage): ApiError {
  return new ApiError(429, 'RATE_LIMITED', `${message} Retry in ${retryAfter} s.`, {
    headers: { 'Retry-After': String(retryAfter) },
    details: { retryAfterSeconds: retryAfter },
    userMessage: userMessage ?? { key: 'rateLimited', values: { retryAfter } },
  });
}
