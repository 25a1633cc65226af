import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { HistoryEntry } from '../protocol/history-entry.js';
import type { HistoryQuery, SessionCommit, SessionRecord, SessionStore } from './session-store.js';

/**
 * Sessions in process memory: the reference implementation of `SessionStore`, for tests and
 * single-process experiments. Everything is lost when the process ends.
 */
export class InMemorySessionStore implements SessionStore {
  readonly #records = new Map<string, SessionRecord>();
  readonly #histories = new Map<string, HistoryEntry[]>();

  async load(sessionId: string): Promise<SessionRecord | null> {
    const record = this.#records.get(sessionId);
    return record ? structuredClone(record) : null;
  }

  async history(sessionId: string, query: HistoryQuery = {}): Promise<HistoryEntry[]> {
    const entries = this.#histories.get(sessionId) ?? [];
    const from = query.limit === undefined ? 0 : Math.max(0, entries.length - query.limit);
    return structuredClone(entries.slice(from));
  }

  async commit({ record, history, expectedVersion }: SessionCommit): Promise<void> {
    const current = this.#records.get(record.id)?.version ?? 0;
    if (current !== expectedVersion) {
      throw new TreeAgentError(
        'SESSION_CONFLICT',
        `Session "${record.id}" changed during the interaction (version ${current}, expected ${expectedVersion}).`,
        { details: { sessionId: record.id } },
      );
    }
    const copy = structuredClone({ record, history });
    this.#records.set(record.id, copy.record);
    const entries = this.#histories.get(record.id) ?? [];
    entries.push(...copy.history);
    this.#histories.set(record.id, entries);
  }

  async delete(sessionId: string): Promise<void> {
    this.#records.delete(sessionId);
    this.#histories.delete(sessionId);
  }

  async deleteSessions(sessionIds: readonly string[]): Promise<void> {
    for (const sessionId of sessionIds) await this.delete(sessionId);
  }
}
