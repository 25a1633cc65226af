import type { ChannelInbox, ChannelInboxEntry, ChannelInboxInput } from '../protocol/channel-inbox.js';
import { channelDeadLetterLimit, conversationKey } from './channel-keys.js';

interface Entry extends ChannelInboxEntry {
  seq: number;
}

/** The channel inbox in process memory (tests, one process without a database): lost on restart. */
export class InMemoryChannelInbox implements ChannelInbox {
  readonly #entries = new Map<string, Entry>();
  #seq = 0;

  async add(entry: ChannelInboxInput, now: Date): Promise<boolean> {
    const key = inboxKey(entry.channel, entry.messageId);
    if (this.#entries.has(key)) return false;
    this.#entries.set(key, {
      ...structuredClone(entry),
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now.toISOString(),
      lastError: null,
      receivedAt: now.toISOString(),
      seq: ++this.#seq,
    });
    return true;
  }

  async lease(now: Date, limit: number, leaseMs: number): Promise<ChannelInboxEntry[]> {
    const heads = new Map<string, Entry>();
    for (const entry of [...this.#entries.values()].sort((a, b) => a.seq - b.seq)) {
      const key = conversationKey({
        channel: entry.channel,
        conversationId: entry.conversation.conversationId,
      });
      if (entry.status === 'pending' && !heads.has(key)) heads.set(key, entry);
    }
    const until = new Date(now.getTime() + leaseMs).toISOString();
    return [...heads.values()]
      .filter((entry) => Date.parse(entry.nextAttemptAt) <= now.getTime())
      .slice(0, Math.max(0, Math.trunc(limit)))
      .map((entry) => {
        entry.attempts += 1;
        entry.nextAttemptAt = until;
        return copy(entry);
      });
  }

  async renew(channel: string, messageId: string, until: Date): Promise<boolean> {
    const entry = this.#entries.get(inboxKey(channel, messageId));
    if (entry?.status !== 'pending') return false;
    entry.nextAttemptAt = until.toISOString();
    return true;
  }

  async done(channel: string, messageId: string): Promise<void> {
    this.#entries.delete(inboxKey(channel, messageId));
  }

  async failed(
    channel: string,
    messageId: string,
    error: string,
    retryAt: Date | null,
    now: Date,
  ): Promise<void> {
    const entry = this.#entries.get(inboxKey(channel, messageId));
    if (!entry) return;
    entry.lastError = error;
    if (retryAt) entry.nextAttemptAt = retryAt.toISOString();
    else Object.assign(entry, { status: 'failed', nextAttemptAt: now.toISOString() });
  }

  async retry(channel: string, messageId: string, now: Date): Promise<boolean> {
    const entry = this.#entries.get(inboxKey(channel, messageId));
    if (entry?.status !== 'failed') return false;
    Object.assign(entry, { status: 'pending', attempts: 0, nextAttemptAt: now.toISOString() });
    return true;
  }

  async failures(limit?: number): Promise<ChannelInboxEntry[]> {
    return [...this.#entries.values()]
      .filter((entry) => entry.status === 'failed')
      .sort((a, b) => b.nextAttemptAt.localeCompare(a.nextAttemptAt) || b.seq - a.seq)
      .slice(0, channelDeadLetterLimit(limit))
      .map(copy);
  }

  async counts(): Promise<{ channel: string; pending: number; failed: number }[]> {
    const counts = new Map<string, { channel: string; pending: number; failed: number }>();
    for (const entry of this.#entries.values()) {
      const count = counts.get(entry.channel) ?? { channel: entry.channel, pending: 0, failed: 0 };
      count[entry.status] += 1;
      counts.set(entry.channel, count);
    }
    return [...counts.values()].sort((a, b) => (a.channel < b.channel ? -1 : 1));
  }

  async sessionEntries(sessionIds: readonly string[]): Promise<ChannelInboxEntry[]> {
    const ids = new Set(sessionIds);
    return [...this.#entries.values()]
      .filter((entry) => ids.has(entry.sessionId))
      .sort((a, b) => a.seq - b.seq)
      .map(copy);
  }

  async deleteSessions(sessionIds: readonly string[]): Promise<number> {
    const ids = new Set(sessionIds);
    let deleted = 0;
    for (const [key, entry] of this.#entries) {
      if (ids.has(entry.sessionId) && this.#entries.delete(key)) deleted++;
    }
    return deleted;
  }
}

const inboxKey = (channel: string, messageId: string) => `${channel}\u0000${messageId}`;

function copy({ seq: _seq, ...entry }: Entry): ChannelInboxEntry {
  return structuredClone(entry);
}
