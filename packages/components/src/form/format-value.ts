import { parseIsoDate } from '../slots/calendar.js';
import { formatPhone } from '../slots/phone-parser.js';
import type { FormLanguage, SlotDefinition } from '../slots/slot-definition.js';

/** How a slot's value reads in the summary: "giovedì 3 dicembre 2026", "+39 333 1234567", "08:30". */
export function formatValue(
  slot: SlotDefinition,
  value: unknown,
  language: FormLanguage,
  timeZone: string,
): string {
  if (slot.format) return slot.format(value);
  const locale = language === 'en' ? 'en-GB' : 'it-IT';
  if (slot.type === 'date' && typeof value === 'string') {
    const date = parseIsoDate(value);
    if (date) {
      return new Intl.DateTimeFormat(locale, {
        timeZone: 'UTC',
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        year: 'numeric',
      }).format(new Date(Date.UTC(date.year, date.month - 1, date.day)));
    }
  }
  if (slot.type === 'date-time' && typeof value === 'string') {
    const instant = new Date(value);
    if (!Number.isNaN(instant.getTime())) {
      return new Intl.DateTimeFormat(locale, {
        timeZone,
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      }).format(instant);
    }
  }
  if (slot.type === 'phone' && typeof value === 'string') return formatPhone(value);
  if (typeof value === 'number') return new Intl.NumberFormat(locale).format(value);
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
