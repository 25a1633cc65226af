import type { HandoffEvent, HandoffOutbox, OutboxDelivery } from '../protocol/handoff-outbox.js';

/** `limit` of `deadLetters`, bounded. */
export function deadLetterLimit(limit: number | undefined): number {
  return Math.min(Math.max(Math.trunc(limit ?? 100), 1), 1000);
}

/** The outbox in process memory (tests, one process without a database): lost on restart. */
export class InMemoryHandoffOutbox implements HandoffOutbox {
  readonly #entries = new Map<string, OutboxDelivery & { addedAt: string }>();

  async add(events: readonly HandoffEvent[], now: Date): Promise<void> {
    for (const event of events) {
      if (this.#entries.has(event.id)) continue;
      this.#entries.set(event.id, {
        event: structuredClone(event),
        attempts: 0,
        status: 'pending',
        nextAttemptAt: now.toISOString(),
        lastError: null,
        addedAt: now.toISOString(),
      });
    }
  }

  async lease(now: Date, limit: number, leaseMs: number): Promise<OutboxDelivery[]> {
    const due = [...this.#entries.values()]
      .filter((entry) => entry.status === 'pending' && Date.parse(entry.nextAttemptAt) <= now.getTime())
      .sort((a, b) => compare(a.nextAttemptAt, b.nextAttemptAt) || compare(a.addedAt, b.addedAt))
      .slice(0, Math.max(0, limit));
    const until = new Date(now.getTime() + leaseMs).toISOString();
    due.sort((a, b) => compare(a.addedAt, b.addedAt) || compare(a.event.id, b.event.id));
    return due.map((entry) => {
      entry.attempts += 1;
      entry.nextAttemptAt = until;
      return copy(entry);
    });
  }

  async delivered(id: string): Promise<void> {
    this.#entries.delete(id);
  }

  async failed(id: string, error: string, retryAt: Date | null): Promise<void> {
    const entry = this.#entries.get(id);
    if (!entry) return;
    entry.lastError = error;
    if (retryAt) entry.nextAttemptAt = retryAt.toISOString();
    else {
      entry.status = 'dead';
      entry.nextAttemptAt = new Date().toISOString();
    }
  }

  async counts(): Promise<{ pending: number; dead: number }> {
    let pending = 0;
    let dead = 0;
    for (const entry of this.#entries.values()) {
      if (entry.status === 'dead') dead++;
      else pending++;
    }
    return { pending, dead };
  }

  async deadLetters(limit?: number): Promise<OutboxDelivery[]> {
    return [...this.#entries.values()]
      .filter((entry) => entry.status === 'dead')
      .sort((a, b) => compare(b.nextAttemptAt, a.nextAttemptAt))
      .slice(0, deadLetterLimit(limit))
      .map(copy);
  }

  async retry(id: string, now: Date): Promise<boolean> {
    const entry = this.#entries.get(id);
    if (entry?.status !== 'dead') return false;
    Object.assign(entry, { status: 'pending', attempts: 0, nextAttemptAt: now.toISOString() });
    return true;
  }

  async sessionDeliveries(sessionIds: readonly string[]): Promise<OutboxDelivery[]> {
    const ids = new Set(sessionIds);
    return [...this.#entries.values()]
      .filter((entry) => ids.has(entry.event.sessionId))
      .sort((a, b) => compare(a.addedAt, b.addedAt) || compare(a.event.id, b.event.id))
      .map(copy);
  }

  async deleteSessions(sessionIds: readonly string[]): Promise<number> {
    const ids = new Set(sessionIds);
    let deleted = 0;
    for (const [id, entry] of this.#entries) {
      if (ids.has(entry.event.sessionId) && this.#entries.delete(id)) deleted++;
    }
    return deleted;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function copy(entry: OutboxDelivery): OutboxDelivery {
  return {
    event: structuredClone(entry.event),
    attempts: entry.attempts,
    status: entry.status,
    nextAttemptAt: entry.nextAttemptAt,
    lastError: entry.lastError,
  };
}
