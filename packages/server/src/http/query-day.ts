import { z } from 'zod';

/**
 * A day in a query (`?from=`, `?to=`): `YYYY-MM-DD`, and a day of the calendar — `2024-02-31` is a
 * 400 that says so, not March 2nd (a `Date` would roll it over).
 */
export const QueryDay = z.iso.date('a day of the calendar written YYYY-MM-DD (2024-02-29, not 2024-02-31)');
