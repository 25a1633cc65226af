import { describe, expect, it } from 'vitest';
import { rowOfValues } from '../test-support/row-of-values.js';
import type { SatisfactionRating } from './satisfaction.js';
import {
  SATISFACTION_RATING_COLUMNS,
  type SatisfactionRatingRow,
  satisfactionRatingOfRow,
  satisfactionRatingValues,
} from './satisfaction-rows.js';

const rating: SatisfactionRating = {
  sessionId: 's1',
  rating: 4,
  comment: null,
  operatorId: 'anna',
  team: 'support',
  treeVersion: 'v1',
  at: new Date('2026-12-06T10:00:00.000Z'),
};

describe('satisfaction rating rows', () => {
  it('a rating written as values reads back the same, its time as text (SQLite) or a Date (PostgreSQL)', () => {
    const row = rowOfValues<SatisfactionRatingRow>(
      SATISFACTION_RATING_COLUMNS,
      satisfactionRatingValues(rating),
    );
    expect(satisfactionRatingOfRow(row)).toEqual(rating);
    expect(satisfactionRatingOfRow({ ...row, at: rating.at })).toEqual(rating);
  });
});
