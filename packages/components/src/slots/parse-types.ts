import type { SlotErrorCode } from './slot-definition.js';

/** The clock and time zone that relative dates ("domani", "next Friday") are read against. */
export interface ParseClock {
  now: Date;
  /** IANA time zone, e.g. `Europe/Rome`. */
  timeZone: string;
}

/** A value a parser found, with the span of the message it read. */
export interface ParsedValue<T = unknown> {
  value: T;
  start: number;
  end: number;
  /** The parser that produced it, e.g. `date`, `date:relative`, `phone`. */
  parser: string;
}

/** Text that looked like a value of the type but was not valid ("+39 333 12", "31 febbraio"). */
export interface ParseMiss {
  error: SlotErrorCode;
  start: number;
  end: number;
  /** A message for the user when the error is a custom one. */
  message?: string;
}

/** What one type's parser found in a message. */
export interface ParseOutcome<T = unknown> {
  values: ParsedValue<T>[];
  misses: ParseMiss[];
}

export const nothing = (): ParseOutcome<never> => ({ values: [], misses: [] });
