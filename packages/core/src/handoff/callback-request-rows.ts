import type { CallbackRequest } from './callback-requests.js';

/**
 * The columns of a SQL table of callback requests (SQLite, PostgreSQL), in the order
 * `callbackRequestValues` returns them.
 */
export const CALLBACK_REQUEST_COLUMNS = [
  'id',
  'session_id',
  'team',
  'contact_kind',
  'contact',
  'day',
  'from_time',
  'to_time',
  'status',
  'created_at',
  'done_at',
  'done_by',
] as const;

/**
 * A row of `CALLBACK_REQUEST_COLUMNS` as a driver reads it back: times as ISO text (SQLite) or as a
 * `Date` (PostgreSQL's `timestamptz`).
 */
export interface CallbackRequestRow {
  id: string;
  session_id: string;
  team: string;
  contact_kind: string;
  contact: string;
  day: string;
  from_time: string;
  to_time: string;
  status: string;
  created_at: string | Date;
  done_at: string | Date | null;
  done_by: string | null;
}

/** A callback request as the values of `CALLBACK_REQUEST_COLUMNS` (times as ISO text). */
export function callbackRequestValues(request: CallbackRequest): unknown[] {
  return [
    request.id,
    request.sessionId,
    request.team,
    request.contact.kind,
    request.contact.value,
    request.window.date,
    request.window.from,
    request.window.to,
    request.status,
    request.createdAt.toISOString(),
    request.doneAt?.toISOString() ?? null,
    request.doneBy,
  ];
}

/** The callback request a row of `CALLBACK_REQUEST_COLUMNS` holds. */
export function callbackRequestOfRow(row: CallbackRequestRow): CallbackRequest {
  return {
    id: row.id,
    sessionId: row.session_id,
    team: row.team,
    contact: { kind: row.contact_kind as CallbackRequest['contact']['kind'], value: row.contact },
    window: { date: row.day, from: row.from_time, to: row.to_time },
    status: row.status as CallbackRequest['status'],
    createdAt: new Date(row.created_at),
    doneAt: row.done_at ? new Date(row.done_at) : null,
    doneBy: row.done_by,
  };
}
