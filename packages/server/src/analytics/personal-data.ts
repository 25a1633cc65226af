import { type FileMetadata, type HistoryEntry, TreeAgentError } from '@treeagent/core';
import type {
  AnalyticsStore,
  AuditEntry,
  AuditLog,
  AuditRecord,
  CallbackRequest,
  CallbackRequests,
  ChannelDelivery,
  ChannelIdentity,
  ChannelInboxEntry,
  ChannelStore,
  FileStore,
  HandoffOutbox,
  HandoffQueue,
  OutboxDelivery,
  QueueEntry,
  SatisfactionRating,
  SatisfactionRatings,
  SessionRecord,
  SessionStore,
  VersionStore,
} from '@treeagent/core/adapter';
import type { StoredTurnFact } from '@treeagent/core/analytics';
import { hashSecret } from '../auth/secrets.js';
import type { SessionTokens } from '../auth/session-tokens.js';
import { LEGACY_OPENAI_SESSION_ID } from '../openai/chat-session.js';

/**
 * A user reference the integrating application passes as `userId` (`POST /api/v1/sessions`): 1–128
 * letters, digits and `. _ : @ + -` — an opaque id, not a name (docs/privacy.md).
 */
export const USER_ID_PATTERN = /^[A-Za-z0-9._:@+-]{1,128}$/;

/** What a personal data request may name: a user (their sessions), a messaging channel's user, and/or sessions by id. */
export interface PersonalDataSubject {
  userId?: string;
  /**
   * A user of a messaging channel (docs/channels.md, "Privacy"): the channel's name and the platform's
   * id of the user (Telegram's user id, a WhatsApp number, a Messenger PSID); every conversation
   * they wrote in.
   */
  channelUser?: { channel: string; userId: string };
  sessionIds?: readonly string[];
}

/** One session of a personal data export. */
export interface ExportedSession {
  sessionId: string;
  /** Whether anything of the session was stored (record, history or turn facts). */
  found: boolean;
  /** When the session was created and last used (from the server's session tokens), if known. */
  createdAt: string | null;
  lastUsedAt: string | null;
  record: SessionRecord | null;
  history: HistoryEntry[];
  facts: StoredTurnFact[];
  /**
   * The metadata of every file of the session: each stored one (uploads no message refers to
   * included, `FileStore.sessionFiles`) and each the session's record names. Their contents:
   * `GET /api/v1/sessions/:id/files/:fileId`.
   */
  files: FileMetadata[];
  /** Its entry in the handoff queue, with the operators' internal notes, or `null`. */
  handoff: QueueEntry | null;
  /** The audit log's entries about the session (what operators did with it), newest first. */
  audit: AuditRecord[];
  /** The handoff webhook's deliveries about the session still in its outbox: pending and dead. */
  webhookDeliveries: OutboxDelivery[];
  /** The messaging channel conversation the session belongs to (docs/channels.md), or `null`. */
  channelIdentity: ChannelIdentity | null;
  /** Messages to the user's channel still in the channel outbox: pending and dead. */
  channelDeliveries: ChannelDelivery[];
  /** The user's messages still in the channel inbox: waiting for their turn, or given up (failed). */
  channelInbox: ChannelInboxEntry[];
  /** The callback requests the user left out of hours (contact and time window), open and done. */
  callbackRequests: CallbackRequest[];
  /** The user's rating (CSAT) of the conversation with people, or `null`. */
  satisfaction: SatisfactionRating | null;
}

/** `POST /api/v1/personal-data/export`, `treeagent personal-data export`. */
export interface PersonalDataExport {
  exportedAt: string;
  userId: string | null;
  sessions: ExportedSession[];
}

/** `POST /api/v1/personal-data/delete`, `treeagent personal-data delete`. */
export interface PersonalDataDeletion {
  userId: string | null;
  /** The sessions that had data and were deleted. */
  deleted: string[];
}

/** Who asks (recorded in the audit log before anything is read or deleted). */
export interface PersonalDataActor {
  id: string;
  role: string | null;
}

/** The stores a personal data request reads and clears. */
export interface PersonalDataStores {
  sessionStore: SessionStore;
  /** The sessions' files: listed by the export (`sessionFiles`), deleted with them (`deleteSession`). */
  fileStore?: FileStore;
  /**
   * The handoff webhook's outbox: the export lists the sessions' deliveries (pending and dead), the
   * deletion removes them, so none is sent or retried after the erasure. `null` or absent: no webhook.
   */
  outbox?: HandoffOutbox | null;
  /**
   * The messaging channels' store: the export lists the sessions' channel identities, undelivered
   * messages and messages still in the inbox, the deletion removes them. `null` or absent: no channels.
   */
  channels?: ChannelStore | null;
  /**
   * Deletes the sessions (default: `sessionStore.deleteSessions`, then each one's files). The server
   * passes `TreeAgent.deleteSessions`, which also waits for the sessions' turns in progress.
   */
  deleteSessions?: (sessionIds: readonly string[]) => Promise<void>;
  /** Callback requests left out of hours: exported and deleted with their sessions. `null` or absent: none kept. */
  callbacks?: CallbackRequests | null;
  /** The users' ratings (CSAT): exported and deleted with their sessions. `null` or absent: none kept. */
  satisfaction?: SatisfactionRatings | null;
  tokens: SessionTokens;
  auditLog: AuditLog;
  handoffQueue: HandoffQueue;
  /**
   * The tree versions the sessions were given (docs/versions.md): the deletion forgets them
   * (`VersionStore.forgetSessions`). A server whose agent has `sessionTrees` forgets them through
   * `deleteSessions` already. `null` or absent: not asked.
   */
  versions?: VersionStore | null;
  /** The turn facts (default: the session store's `analytics()`, when it has one). */
  analytics?: AnalyticsStore | null;
  /**
   * Appends an entry to the audit log (default: `auditLog.append`); the server's turns a failure into
   * 503 `AUDIT_LOG`.
   */
  audit?: (entry: AuditEntry) => Promise<unknown>;
  now?: () => Date;
}

/** The audit log's reference to a user: the first 16 hex digits of the SHA-256 of the id, never the id itself. */
export function userReference(userId: string): string {
  return hashSecret(userId).slice(0, 16);
}

/**
 * One user's data on request (docs/privacy.md): export everything stored about their sessions, or
 * delete it. The sessions are those created for `userId` (`SessionTokens.userSessions`) plus any
 * named by id. Each request is audited (actor, action, the user's reference and the session count)
 * before it is carried out: a request that cannot be audited is not done.
 */
export class PersonalData {
  readonly #stores: PersonalDataStores;
  readonly #now: () => Date;

  constructor(stores: PersonalDataStores) {
    this.#stores = stores;
    this.#now = stores.now ?? (() => new Date());
  }

  /** Every session of the subject, with its record, history, turn facts, files, handoff notes and audit entries. */
  async export(subject: PersonalDataSubject, actor: PersonalDataActor): Promise<PersonalDataExport> {
    const sessionIds = await this.#sessionsOf(subject);
    await this.#audit(actor, 'personal-data.export', subject, sessionIds);
    const { sessionStore, fileStore, outbox, tokens, auditLog, handoffQueue } = this.#stores;
    const analytics = this.#analytics();
    const deliveries = outbox ? await outbox.sessionDeliveries(sessionIds) : [];
    const channelData = this.#stores.channels
      ? await this.#stores.channels.sessionData(sessionIds)
      : { identities: [], deliveries: [] };
    const inbox = (await this.#stores.channels?.inbox?.().sessionEntries(sessionIds)) ?? [];
    const callbacks = this.#stores.callbacks ? await this.#stores.callbacks.sessionRequests(sessionIds) : [];
    const ratings = this.#stores.satisfaction ? await this.#stores.satisfaction.list() : [];
    const sessions: ExportedSession[] = [];
    for (const sessionId of sessionIds) {
      const [record, history, facts, info, handoff, audit, stored] = await Promise.all([
        sessionStore.load(sessionId),
        sessionStore.history(sessionId),
        analytics ? analytics.turns(sessionId) : Promise.resolve([]),
        tokens.info ? tokens.info(sessionId) : Promise.resolve(null),
        handoffQueue.get(sessionId),
        auditLog.list({ sessionId, limit: 1000 }),
        fileStore?.sessionFiles ? fileStore.sessionFiles(sessionId) : Promise.resolve([]),
      ]);
      sessions.push({
        sessionId,
        found:
          record !== null ||
          history.length > 0 ||
          facts.length > 0 ||
          channelData.identities.some((identity) => identity.sessionId === sessionId),
        createdAt: info?.createdAt.toISOString() ?? null,
        lastUsedAt: info?.lastUsedAt.toISOString() ?? null,
        record,
        history,
        facts,
        files: filesOf(stored, record),
        handoff,
        audit,
        webhookDeliveries: deliveries.filter((delivery) => delivery.event.sessionId === sessionId),
        channelIdentity: channelData.identities.find((identity) => identity.sessionId === sessionId) ?? null,
        channelDeliveries: channelData.deliveries.filter((delivery) => delivery.sessionId === sessionId),
        channelInbox: inbox.filter((entry) => entry.sessionId === sessionId),
        callbackRequests: callbacks.filter((request) => request.sessionId === sessionId),
        satisfaction: ratings.find((rating) => rating.sessionId === sessionId) ?? null,
      });
    }
    return { exportedAt: this.#now().toISOString(), userId: subject.userId ?? null, sessions };
  }

  /**
   * Deletes everything of the subject's sessions: records, histories and turn facts in one session
   * store transaction, files, handoff queue entries (with their notes), the webhook's deliveries
   * about them (pending and dead), callback requests and ratings, then the sessions' tokens (the user's in one transaction), so a
   * request that stops half-way is completed by repeating it. Last, each store purges what the
   * deleted rows left in its storage (`purgeDeleted`: SQLite empties its WAL, PostgreSQL vacuums).
   * The audit log keeps its entries (ids and counts, no texts): the record of who did what,
   * this deletion included.
   */
  async delete(subject: PersonalDataSubject, actor: PersonalDataActor): Promise<PersonalDataDeletion> {
    const sessionIds = await this.#sessionsOf(subject);
    await this.#audit(actor, 'personal-data.delete', subject, sessionIds);
    const { sessionStore, tokens, handoffQueue } = this.#stores;
    const analytics = this.#analytics();
    const deleted: string[] = [];
    for (const sessionId of sessionIds) {
      const [record, facts] = await Promise.all([
        sessionStore.load(sessionId),
        analytics ? analytics.turns(sessionId) : Promise.resolve([]),
      ]);
      if (record !== null || facts.length > 0 || (await tokens.find(sessionId)) !== null)
        deleted.push(sessionId);
    }
    await this.#deleteSessions(sessionIds);
    for (const sessionId of sessionIds) await handoffQueue.delete(sessionId);
    await this.#stores.outbox?.deleteSessions(sessionIds);
    await this.#stores.channels?.deleteSessions(sessionIds);
    await this.#stores.versions?.forgetSessions(sessionIds);
    await this.#stores.callbacks?.deleteSessions(sessionIds);
    for (const sessionId of sessionIds) await this.#stores.satisfaction?.forget(sessionId);
    if (subject.userId !== undefined && tokens.deleteUser) await tokens.deleteUser(subject.userId);
    for (const sessionId of subject.sessionIds ?? []) await tokens.delete(sessionId);
    await this.#purgeDeleted();
    return { userId: subject.userId ?? null, deleted };
  }

  /** Each store, once, removes what the deleted rows left in its storage (when it can). */
  async #purgeDeleted(): Promise<void> {
    const { sessionStore, fileStore, handoffQueue, outbox, tokens } = this.#stores;
    const stores = new Set<{ purgeDeleted?(): Promise<void> } | null | undefined>([
      sessionStore,
      fileStore,
      handoffQueue,
      outbox,
      tokens,
      this.#stores.channels as { purgeDeleted?(): Promise<void> } | null | undefined,
    ]);
    for (const store of stores) await store?.purgeDeleted?.();
  }

  async #sessionsOf(subject: PersonalDataSubject): Promise<string[]> {
    const ids = new Set<string>();
    if (subject.userId !== undefined) {
      if (!this.#stores.tokens.userSessions) {
        throw new TreeAgentError(
          'INVALID_INPUT',
          'The session tokens store does not keep users (userSessions): use the in-memory, SQLite or PostgreSQL one, or name the sessions by id.',
        );
      }
      for (const id of await this.#stores.tokens.userSessions(subject.userId)) ids.add(id);
    }
    if (subject.channelUser) {
      const { channel, userId } = subject.channelUser;
      if (!this.#stores.channels)
        throw new TreeAgentError(
          'INVALID_INPUT',
          'This server keeps no channel identities (no channel store): name the sessions by id instead of channelUser.',
        );
      for (const id of await this.#stores.channels.sessionsOfUser(channel, userId)) ids.add(id);
    }
    for (const id of subject.sessionIds ?? []) ids.add(id);
    return [...ids];
  }

  async #deleteSessions(sessionIds: readonly string[]): Promise<void> {
    const { sessionStore, fileStore, deleteSessions } = this.#stores;
    if (deleteSessions) return deleteSessions(sessionIds);
    if (sessionStore.deleteSessions) await sessionStore.deleteSessions(sessionIds);
    else for (const sessionId of sessionIds) await sessionStore.delete(sessionId);
    for (const sessionId of sessionIds) await fileStore?.deleteSession?.(sessionId);
  }

  #analytics(): AnalyticsStore | null {
    if (this.#stores.analytics !== undefined) return this.#stores.analytics;
    const store = this.#stores.sessionStore as { analytics?: () => AnalyticsStore };
    return store.analytics?.() ?? null;
  }

  async #audit(
    actor: PersonalDataActor,
    action: string,
    subject: PersonalDataSubject,
    sessionIds: readonly string[],
  ): Promise<void> {
    const at = this.#now();
    const user = subject.userId === undefined ? null : userReference(subject.userId);
    // A channel user is audited by reference too, never by the platform's id.
    const channelUser = subject.channelUser
      ? `${subject.channelUser.channel}:${userReference(subject.channelUser.userId)}`
      : null;
    const append = this.#stores.audit ?? ((entry: AuditEntry) => this.#stores.auditLog.append(entry));
    await append({
      at,
      actorId: actor.id,
      actorRole: actor.role,
      action,
      sessionId: null,
      detail: { user, ...(channelUser ? { channelUser } : {}), sessions: sessionIds.length },
    });
    for (const sessionId of sessionIds) {
      await append({
        at,
        actorId: actor.id,
        actorRole: actor.role,
        action,
        sessionId: auditedSessionId(sessionId),
        detail: { user },
      });
    }
  }
}

/**
 * A session id as the audit log may keep it: as it is, but for an OpenAI-compatible conversation an
 * earlier server stored under the client's own id (which may be an e-mail), whose id is replaced by
 * its reference (`openai:k:<key hash>:ref:<reference>`), as a `userId` is.
 */
export function auditedSessionId(sessionId: string): string {
  const legacy = LEGACY_OPENAI_SESSION_ID.exec(sessionId);
  if (!legacy) return sessionId;
  return `${sessionId.slice(0, sessionId.length - legacy[1]!.length)}ref:${userReference(legacy[1]!)}`;
}

/** The stored files of a session, then those its record names that the store did not list. */
function filesOf(stored: FileMetadata[], record: SessionRecord | null): FileMetadata[] {
  const ids = new Set(stored.map((file) => file.id));
  return [...stored, ...(record?.files ?? []).filter((file) => !ids.has(file.id))];
}
