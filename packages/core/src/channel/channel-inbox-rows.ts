import type { ChannelConversation } from '../protocol/channel.js';
import type { ChannelInboxEntry } from '../protocol/channel-inbox.js';
import type { FileMetadata } from '../protocol/file-metadata.js';

/**
 * A row of a SQL channel inbox table (SQLite, PostgreSQL) as a driver reads it back: the
 * conversation and attachments as JSON text (SQLite) or decoded `jsonb` (PostgreSQL), the times as
 * ISO text or a `Date`.
 */
export interface ChannelInboxRow {
  channel: string;
  message_id: string;
  session_id: string;
  conversation: string | ChannelConversation;
  text: string;
  selected_option: string | null;
  attachments: string | FileMetadata[];
  status: 'pending' | 'failed';
  attempts: number;
  next_attempt_at: string | Date;
  last_error: string | null;
  received_at: string | Date;
}

const json = <T>(value: string | T): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
const iso = (value: string | Date): string => (typeof value === 'string' ? value : value.toISOString());

/** The inbox entry a row holds. */
export function channelInboxEntryOfRow(row: ChannelInboxRow): ChannelInboxEntry {
  return {
    channel: row.channel,
    messageId: row.message_id,
    sessionId: row.session_id,
    conversation: json<ChannelConversation>(row.conversation),
    text: row.text,
    selectedOption: row.selected_option,
    attachments: json<FileMetadata[]>(row.attachments),
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: iso(row.next_attempt_at),
    lastError: row.last_error,
    receivedAt: iso(row.received_at),
  };
}
