/** How a team's new conversations find an operator. */
export type AssignmentPolicy = 'manual' | 'round-robin' | 'least-busy';

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
/** A day of the week, as `BusinessHours.open` names it. */
export type Weekday = (typeof DAYS)[number];

/** When a team answers, in its own time zone. */
export interface BusinessHours {
  /** An IANA time zone, e.g. `Europe/Rome`: the hours are local there (daylight saving included). */
  timeZone: string;
  /** Per day, one or more ranges `HH:MM-HH:MM` (end excluded); a day not listed is closed. */
  open: Partial<Record<Weekday, string[]>>;
}

/** A team (a handoff queue) of `handoff.teams`. */
export interface TeamOptions {
  /** Default `manual`: operators claim from the queue. `round-robin` and `least-busy` assign at once. */
  policy?: AssignmentPolicy;
  /** At most this many open conversations held by one operator before they are passed over. Default: the `handoff.maxConcurrent`, else unlimited. */
  maxConcurrent?: number;
  /** Business hours; without them the team is always open. */
  hours?: BusinessHours;
  /**
   * Sent to the user when a conversation reaches the team out of hours (default below); the
   * conversation then waits in the queue with what the user writes (they leave a message), and is
   * assigned when an operator of the team comes online.
   */
  outOfHoursMessage?: string;
  /** The name shown to the user with that message. Default: "<team> team". */
  name?: string;
}

/** The out-of-hours message when the team gives none. */
export const DEFAULT_OUT_OF_HOURS_MESSAGE =
  'We are closed right now. Leave your message here: an operator will answer as soon as we open.';

const RANGE = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-4]):([0-5]\d)$/;

/** Checks `handoff.teams`, naming the team and the field to fix. */
export function checkTeams(teams: Record<string, TeamOptions>): void {
  for (const [team, options] of Object.entries(teams)) {
    const where = `handoff.teams["${team}"]`;
    if (options.policy !== undefined && !['manual', 'round-robin', 'least-busy'].includes(options.policy))
      throw new TypeError(
        `${where}.policy is "${options.policy}": use "manual", "round-robin" or "least-busy".`,
      );
    if (
      options.maxConcurrent !== undefined &&
      !(Number.isInteger(options.maxConcurrent) && options.maxConcurrent > 0)
    )
      throw new TypeError(`${where}.maxConcurrent must be a whole number above 0.`);
    if (!options.hours) continue;
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: options.hours.timeZone });
    } catch {
      throw new TypeError(
        `${where}.hours.timeZone "${options.hours.timeZone}" is not an IANA time zone: write it like "Europe/Rome" or "America/New_York".`,
      );
    }
    for (const [day, ranges] of Object.entries(options.hours.open)) {
      if (!DAYS.includes(day as Weekday))
        throw new TypeError(`${where}.hours.open has "${day}": name days ${DAYS.join(', ')}.`);
      for (const range of ranges ?? []) {
        const match = RANGE.exec(range);
        if (!match || `${match[3]}:${match[4]}` <= `${match[1]}:${match[2]}`)
          throw new TypeError(
            `${where}.hours.open.${day} has "${range}": write ranges like "09:00-18:00" (the end after the start).`,
          );
      }
    }
  }
}

/** Whether `hours` are open at `at` (their time zone's local day and time). */
export function isOpenAt(hours: BusinessHours, at: Date): boolean {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: hours.timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => parts.find((item) => item.type === type)?.value ?? '';
  const day = part('weekday').toLowerCase().slice(0, 3) as Weekday;
  const time = `${part('hour')}:${part('minute')}`;
  return (hours.open[day] ?? []).some((range) => {
    const [from, to] = range.split('-') as [string, string];
    return time >= from && time < to;
  });
}
