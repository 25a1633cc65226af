import { describe, expect, it } from 'vitest';
import { checkTeams, isOpenAt } from './team-options.js';

describe('team business hours', () => {
  const hours = {
    timeZone: 'Europe/Rome',
    open: { mon: ['09:00-13:00', '14:00-18:00'], sat: ['10:00-12:00'] },
  };

  it("reads the hours in the team's time zone, daylight saving included", () => {
    // Monday 7 December 2026: Rome is UTC+1.
    expect(isOpenAt(hours, new Date('2026-12-07T08:30:00Z'))).toBe(true); // 09:30 in Rome
    expect(isOpenAt(hours, new Date('2026-12-07T07:59:00Z'))).toBe(false); // 08:59
    expect(isOpenAt(hours, new Date('2026-12-07T12:30:00Z'))).toBe(false); // 13:30, lunch
    expect(isOpenAt(hours, new Date('2026-12-07T17:00:00Z'))).toBe(false); // 18:00, end excluded
    // Monday 6 July 2026: Rome is UTC+2.
    expect(isOpenAt(hours, new Date('2026-07-06T07:30:00Z'))).toBe(true); // 09:30
    expect(isOpenAt(hours, new Date('2026-12-06T10:00:00Z'))).toBe(false); // a Sunday
  });

  it('refuses a bad time zone, day or range, naming the team and the fix', () => {
    expect(() => checkTeams({ sales: { hours: { timeZone: 'Mars/Olympus', open: {} } } })).toThrow(
      'handoff.teams["sales"].hours.timeZone "Mars/Olympus" is not an IANA time zone',
    );
    expect(() =>
      checkTeams({ sales: { hours: { timeZone: 'UTC', open: { mon: ['18:00-09:00'] } } } }),
    ).toThrow('the end after the start');
    expect(() => checkTeams({ sales: { policy: 'random' as 'manual' } })).toThrow(
      'use "manual", "round-robin" or "least-busy"',
    );
    expect(() => checkTeams({ sales: { maxConcurrent: 0 } })).toThrow(
      'maxConcurrent must be a whole number above 0',
    );
  });
});
