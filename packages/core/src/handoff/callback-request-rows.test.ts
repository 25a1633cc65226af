import { describe, expect, it } from 'vitest';
import { rowOfValues } from '../test-support/row-of-values.js';
import {
  CALLBACK_REQUEST_COLUMNS,
  type CallbackRequestRow,
  callbackRequestOfRow,
  callbackRequestValues,
} from './callback-request-rows.js';
import type { CallbackRequest } from './callback-requests.js';

const done: CallbackRequest = {
  id: 'r1',
  sessionId: 's1',
  team: 'support',
  contact: { kind: 'phone', value: '+39 055 000 0000' },
  window: { date: '2026-12-07', from: '09:00', to: '11:00' },
  status: 'done',
  createdAt: new Date('2026-12-06T18:30:00.000Z'),
  doneAt: new Date('2026-12-07T09:15:00.000Z'),
  doneBy: 'anna',
};

const rowOf = (request: CallbackRequest) =>
  rowOfValues<CallbackRequestRow>(CALLBACK_REQUEST_COLUMNS, callbackRequestValues(request));

describe('callback request rows', () => {
  it('a request written as values reads back the same, open or done', () => {
    expect(callbackRequestOfRow(rowOf(done))).toEqual(done);
    const open: CallbackRequest = { ...done, status: 'open', doneAt: null, doneBy: null };
    expect(callbackRequestOfRow(rowOf(open))).toEqual(open);
  });

  it('reads times given as Date (PostgreSQL) as it reads them as ISO text (SQLite)', () => {
    const row = rowOf(done);
    const withDates = { ...row, created_at: done.createdAt, done_at: done.doneAt };
    expect(callbackRequestOfRow(withDates)).toEqual(callbackRequestOfRow(row));
  });
});
