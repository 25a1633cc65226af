/** A running turn as the tracker sees it: its abort signal, and `end()` to call once it settled. */
export interface TurnLease {
  /** Aborted when shutdown gives up waiting for the turn. */
  readonly signal: AbortSignal;
  end(): void;
}

/** What `drain` did: turns that finished on their own, and turns it had to abort. */
export interface DrainResult {
  finished: number;
  aborted: number;
  /** Aborted turns that had still not settled when the grace period ended. */
  unsettled: number;
}

/** The reason given to turns aborted by a shutdown; lets the server answer `SHUTTING_DOWN`. */
export class ShutdownAbort extends Error {
  constructor() {
    super('The server is shutting down.');
    this.name = 'ShutdownAbort';
  }
}

interface Entry {
  controller: AbortController;
  settled: Promise<void>;
}

const sleep = (ms: number) =>
  new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms).unref());

/**
 * Counts the turns in flight and drives graceful shutdown: once draining, `begin()` refuses new
 * turns; `drain()` waits for the running ones up to a timeout, then aborts the rest (the engine
 * commits nothing for an aborted turn).
 */
export class TurnTracker {
  readonly #entries = new Set<Entry>();
  #draining = false;

  /** True once shutdown began: new turns are refused. */
  get draining(): boolean {
    return this.#draining;
  }

  /** Turns running now. */
  get inFlight(): number {
    return this.#entries.size;
  }

  /** Registers a new turn, or returns `null` when the server is shutting down. */
  begin(): TurnLease | null {
    if (this.#draining) return null;
    const controller = new AbortController();
    let end!: () => void;
    const entry: Entry = { controller, settled: new Promise<void>((resolve) => (end = resolve)) };
    this.#entries.add(entry);
    return {
      signal: controller.signal,
      end: () => {
        this.#entries.delete(entry);
        end();
      },
    };
  }

  /**
   * Stops accepting turns, waits up to `timeoutMs` for the running ones, aborts those still
   * running, and waits up to `abortGraceMs` more for them to notice (a callback that never returns
   * cannot be interrupted; it is reported as unsettled).
   */
  async drain(options: { timeoutMs: number; abortGraceMs: number }): Promise<DrainResult> {
    this.#draining = true;
    const started = [...this.#entries];
    const all = (entries: Entry[]) => Promise.all(entries.map((entry) => entry.settled));
    await Promise.race([all(started), sleep(options.timeoutMs)]);
    const running = started.filter((entry) => this.#entries.has(entry));
    for (const entry of running) entry.controller.abort(new ShutdownAbort());
    if (running.length) await Promise.race([all(running), sleep(options.abortGraceMs)]);
    const unsettled = running.filter((entry) => this.#entries.has(entry)).length;
    return { finished: started.length - running.length, aborted: running.length, unsettled };
  }
}
