import type { ChannelConversation, ChannelDelivery, ChannelIdentity } from '../protocol/channel.js';
import type { ChannelInbox } from '../protocol/channel-inbox.js';
import type { ChannelDeliveryInput, ChannelStore } from '../protocol/channel-store.js';
import { channelDeadLetterLimit, conversationKey } from './channel-keys.js';
import { InMemoryChannelInbox } from './in-memory-channel-inbox.js';

interface Entry extends ChannelDelivery {
  seq: number;
}

/** The channel store in process memory (tests, one process without a database): lost on restart. */
export class InMemoryChannelStore implements ChannelStore {
  readonly #identities = new Map<string, ChannelIdentity>();
  readonly #sessions = new Map<string, string>();
  readonly #entries = new Map<string, Entry>();
  readonly #inbox = new InMemoryChannelInbox();
  #seq = 0;

  /** The inbox of incoming messages, in memory beside the outbox. */
  inbox(): ChannelInbox {
    return this.#inbox;
  }

  async sessionOf(conversation: ChannelConversation, newSessionId: string, now: Date): Promise<string> {
    const key = conversationKey(conversation);
    const known = this.#identities.get(key);
    if (known) {
      known.conversation = structuredClone(conversation);
      return known.sessionId;
    }
    this.#identities.set(key, {
      sessionId: newSessionId,
      conversation: structuredClone(conversation),
      createdAt: now.toISOString(),
    });
    this.#sessions.set(newSessionId, key);
    return newSessionId;
  }

  async conversationOf(sessionId: string): Promise<ChannelConversation | null> {
    const key = this.#sessions.get(sessionId);
    const identity = key ? this.#identities.get(key) : undefined;
    return identity ? structuredClone(identity.conversation) : null;
  }

  async enqueue(deliveries: readonly ChannelDeliveryInput[], now: Date): Promise<void> {
    for (const delivery of deliveries) {
      if (this.#entries.has(delivery.id)) continue;
      this.#entries.set(delivery.id, {
        ...structuredClone(delivery),
        attempts: 0,
        status: 'pending',
        nextAttemptAt: now.toISOString(),
        lastError: null,
        seq: ++this.#seq,
      });
    }
  }

  async lease(now: Date, limit: number, leaseMs: number): Promise<ChannelDelivery[]> {
    const heads = new Map<string, Entry>();
    for (const entry of [...this.#entries.values()].sort((a, b) => a.seq - b.seq)) {
      const key = conversationKey(entry.conversation);
      if (entry.status === 'pending' && !heads.has(key)) heads.set(key, entry);
    }
    const until = new Date(now.getTime() + leaseMs).toISOString();
    return [...heads.values()]
      .filter((entry) => Date.parse(entry.nextAttemptAt) <= now.getTime())
      .slice(0, Math.max(0, limit))
      .map((entry) => {
        entry.attempts += 1;
        entry.nextAttemptAt = until;
        return copy(entry);
      });
  }

  async delivered(id: string): Promise<void> {
    this.#entries.delete(id);
  }

  async failed(id: string, error: string, retryAt: Date | null, now: Date): Promise<void> {
    const entry = this.#entries.get(id);
    if (!entry) return;
    entry.lastError = error;
    if (retryAt) entry.nextAttemptAt = retryAt.toISOString();
    else Object.assign(entry, { status: 'dead', nextAttemptAt: now.toISOString() });
  }

  async counts(): Promise<{ channel: string; pending: number; dead: number }[]> {
    const counts = new Map<string, { channel: string; pending: number; dead: number }>();
    for (const entry of this.#entries.values()) {
      const channel = entry.conversation.channel;
      const count = counts.get(channel) ?? { channel, pending: 0, dead: 0 };
      count[entry.status] += 1;
      counts.set(channel, count);
    }
    return [...counts.values()].sort((a, b) => (a.channel < b.channel ? -1 : 1));
  }

  async deadLetters(limit?: number): Promise<ChannelDelivery[]> {
    return [...this.#entries.values()]
      .filter((entry) => entry.status === 'dead')
      .sort((a, b) => b.nextAttemptAt.localeCompare(a.nextAttemptAt) || b.seq - a.seq)
      .slice(0, channelDeadLetterLimit(limit))
      .map(copy);
  }

  async retry(id: string, now: Date): Promise<boolean> {
    const entry = this.#entries.get(id);
    if (entry?.status !== 'dead') return false;
    Object.assign(entry, { status: 'pending', attempts: 0, nextAttemptAt: now.toISOString() });
    return true;
  }

  async sessionsOfUser(channel: string, userId: string): Promise<string[]> {
    return [...this.#identities.values()]
      .filter(
        (identity) => identity.conversation.channel === channel && identity.conversation.userId === userId,
      )
      .map((identity) => identity.sessionId);
  }

  async sessionData(
    sessionIds: readonly string[],
  ): Promise<{ identities: ChannelIdentity[]; deliveries: ChannelDelivery[] }> {
    const ids = new Set(sessionIds);
    return {
      identities: [...this.#identities.values()]
        .filter((identity) => ids.has(identity.sessionId))
        .map((identity) => structuredClone(identity)),
      deliveries: [...this.#entries.values()]
        .filter((entry) => ids.has(entry.sessionId))
        .sort((a, b) => a.seq - b.seq)
        .map(copy),
    };
  }

  async deleteSessions(sessionIds: readonly string[]): Promise<number> {
    const ids = new Set(sessionIds);
    let deleted = await this.#inbox.deleteSessions(sessionIds);
    for (const [id, entry] of this.#entries) {
      if (ids.has(entry.sessionId) && this.#entries.delete(id)) deleted++;
    }
    for (const [key, identity] of this.#identities) {
      if (!ids.has(identity.sessionId)) continue;
      this.#identities.delete(key);
      this.#sessions.delete(identity.sessionId);
      deleted++;
    }
    return deleted;
  }
}

function copy({ seq: _seq, ...entry }: Entry): ChannelDelivery {
  return structuredClone(entry);
}
