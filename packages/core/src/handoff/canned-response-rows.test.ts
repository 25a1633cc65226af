import { describe, expect, it } from 'vitest';
import { cannedResponseOfRow } from './canned-response-rows.js';

describe('canned response rows', () => {
  it("reads team '' as every team (null), another team as itself, the time as text or a Date", () => {
    const row = {
      id: 'c1',
      shortcut: 'hello',
      team: '',
      text: 'Hello {{name}}!',
      updated_at: '2026-12-06T10:00:00.000Z',
    };
    const updatedAt = new Date('2026-12-06T10:00:00.000Z');
    expect(cannedResponseOfRow(row)).toEqual({
      id: 'c1',
      shortcut: 'hello',
      team: null,
      text: 'Hello {{name}}!',
      updatedAt,
    });
    expect(cannedResponseOfRow({ ...row, team: 'vip', updated_at: updatedAt })).toMatchObject({
      team: 'vip',
      updatedAt,
    });
  });
});
