import { InMemoryChannelStore } from '../channel/in-memory-channel-store.js';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import { InMemoryHandoffOutbox } from '../handoff/in-memory-handoff-outbox.js';
import type { InboundReceipt } from '../protocol/channel.js';
import type { ChannelStore } from '../protocol/channel-store.js';
import type { HandoffOutbox } from '../protocol/handoff-outbox.js';
import type { HistoryEntry } from '../protocol/history-entry.js';
import { duplicateDelivery, receiptKey } from './duplicate-delivery.js';
import type { HistoryQuery, SessionCommit, SessionRecord, SessionStore } from './session-store.js';

/**
 * Sessions in process memory: the reference implementation of `SessionStore`, for tests and
 * single-process experiments. Everything is lost when the process ends.
 */
export class InMemorySessionStore implements SessionStore {
  readonly #records = new Map<string, SessionRecord>();
  readonly #histories = new Map<string, HistoryEntry[]>();
  /** Inbound receipts (platform message ids) by key, with their session. */
  readonly #receipts = new Map<string, string>();
  #outbox: InMemoryHandoffOutbox | null = null;
  #channels: InMemoryChannelStore | null = null;

  /** The channel identities and outbox in memory. */
  channelStore(): ChannelStore {
    this.#channels ??= new InMemoryChannelStore();
    return this.#channels;
  }

  async hasReceipt(receipt: InboundReceipt): Promise<boolean> {
    return this.#receipts.has(receiptKey(receipt));
  }

  /** The webhook's outbox in memory; from this call on, commits add their handoff events to it. */
  handoffOutbox(): HandoffOutbox {
    this.#outbox ??= new InMemoryHandoffOutbox();
    return this.#outbox;
  }

  async load(sessionId: string): Promise<SessionRecord | null> {
    const record = this.#records.get(sessionId);
    return record ? structuredClone(record) : null;
  }

  async history(sessionId: string, query: HistoryQuery = {}): Promise<HistoryEntry[]> {
    const entries = this.#histories.get(sessionId) ?? [];
    const from = query.limit === undefined ? 0 : Math.max(0, entries.length - query.limit);
    return structuredClone(entries.slice(from));
  }

  async commit({
    record,
    history,
    expectedVersion,
    handoffEvents,
    inbound,
    outbound,
  }: SessionCommit): Promise<void> {
    const current = this.#records.get(record.id)?.version ?? 0;
    if (current !== expectedVersion) {
      throw new TreeAgentError(
        'SESSION_CONFLICT',
        `Session "${record.id}" changed during the interaction (version ${current}, expected ${expectedVersion}).`,
        { details: { sessionId: record.id } },
      );
    }
    if (inbound && this.#receipts.has(receiptKey(inbound))) throw duplicateDelivery(record.id, inbound);
    if (inbound) this.#receipts.set(receiptKey(inbound), record.id);
    // The update leaves the inbox with the commit (the in-memory removal does not wait).
    if (inbound) void this.channelStore().inbox?.().done(inbound.channel, inbound.messageId);
    const copy = structuredClone({ record, history });
    this.#records.set(record.id, copy.record);
    const entries = this.#histories.get(record.id) ?? [];
    entries.push(...copy.history);
    this.#histories.set(record.id, entries);
    // Synchronously with the record (the in-memory add does not wait): nothing runs in between.
    if (this.#outbox && handoffEvents?.length) void this.#outbox.add(handoffEvents, new Date());
    // The answer to the channel, likewise (the in-memory enqueue does not wait either).
    if (outbound?.length) void this.channelStore().enqueue(outbound, new Date());
  }

  async delete(sessionId: string): Promise<void> {
    this.#records.delete(sessionId);
    this.#histories.delete(sessionId);
    for (const [key, owner] of this.#receipts) if (owner === sessionId) this.#receipts.delete(key);
  }

  async deleteSessions(sessionIds: readonly string[]): Promise<void> {
    for (const sessionId of sessionIds) await this.delete(sessionId);
  }
}
