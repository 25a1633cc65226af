/**
 * The loop of a durable outbox (the handoff webhook, the messaging channels): `drain` sends what is
 * due, on a timer and on `poke`; one drain at a time, and a poke during a drain runs one more after it.
 */
export class DrainLoop {
  readonly #drain: () => Promise<void>;
  readonly #pollMs: number;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #again = false;
  #stopped = false;

  constructor(drain: () => Promise<void>, pollMs: number) {
    this.#drain = drain;
    this.#pollMs = pollMs;
  }

  /** Whether `stop` was called: a drain in progress ends early. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Starts the timer and drains at once (what the outbox already holds, e.g. after a restart). */
  start(): void {
    if (this.#stopped || this.#timer) return;
    this.#timer = setInterval(() => this.poke(), this.#pollMs);
    this.#timer.unref?.();
    this.poke();
  }

  /** Drains now, or once more after the drain in progress. */
  poke(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#drain().finally(() => {
      this.#running = null;
      if (this.#again && !this.#stopped) {
        this.#again = false;
        this.poke();
      }
    });
  }

  /** Ends the loop at once; a drain in progress finishes. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Waits for the drains in progress. */
  async settle(): Promise<void> {
    while (this.#running) await this.#running;
  }
}
