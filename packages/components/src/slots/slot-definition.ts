import type { Context, LocalizedText } from '@treeagent/core';

/** The language of a form's default messages. Parsers understand both at once. */
export type FormLanguage = 'it' | 'en';

/** The kinds of value a slot holds (docs/forms.md, "Slot types"). */
export type SlotType =
  | 'text'
  | 'enum'
  | 'integer'
  | 'number'
  | 'date'
  | 'time'
  | 'date-time'
  | 'email'
  | 'phone'
  | 'regex'
  | 'custom';

/** Why a reply looked like an answer for a slot but was not a valid one. */
export type SlotErrorCode =
  | 'invalid-date'
  | 'past-date'
  | 'future-date'
  | 'invalid-time'
  | 'missing-time'
  | 'missing-date'
  | 'invalid-phone'
  | 'invalid-email'
  | 'not-integer'
  | 'out-of-range'
  | 'ambiguous'
  | 'no-match'
  | 'invalid';

/** What a custom parser or validator returns when the text is not a valid value: a message for the user. */
export interface SlotRejection {
  error: string;
}

/** What a custom `parse` finds in a message: the value and, optionally, where it was. */
export interface CustomParse {
  value: unknown;
  start?: number;
  end?: number;
}

/** Where a value came from: the parser that produced it and the text it read. */
export interface SlotSource {
  /** `date`, `time`, `phone`, `enum`, `regex`, `integer`, `number`, `email`, `text`, `custom`, `llm`, `default`. */
  parser: string;
  /** The part of the message the value was read from. */
  text: string;
  /** Interaction number. */
  turn: number;
}

/**
 * One piece of information the form collects (Dialogflow CX's form parameter, a Rasa slot).
 *
 * @example
 * { name: 'phone', type: 'phone', question: 'A che numero ti possiamo richiamare?' }
 * { name: 'bike', type: 'enum', question: 'Che bici è?', options: { corsa: ['bici da corsa', 'road bike'], mtb: ['mountain bike'] } }
 */
export interface SlotDefinition {
  /** Key of the value in the form's values (and in the LLM's JSON schema). Letters, digits, `_`. */
  name: string;
  type: SlotType;
  /** The question that asks for it: one text, or one per language (`{ it, en }`, docs/multilingual-trees.md). */
  question: LocalizedText;
  /**
   * Asked instead of the default re-ask (the reason, then the question) when a reply had no valid
   * value; say why in it. A custom validator's message still comes first.
   */
  reask?: LocalizedText;
  /** Shown in the confirmation summary (default: the name). */
  label?: LocalizedText;
  /** Default `true`. An optional slot is asked once; "non lo so" / "I don't know" skips it. */
  required?: boolean;
  /** Value of an optional slot left empty (skipped, or never given). */
  default?: unknown;
  /** For the LLM extraction: what the slot means (default: the question). */
  description?: string;
  /**
   * `enum`: the allowed values, each with its synonyms (`{ mtb: ['mountain bike', 'mtb'] }`), or a list
   * of values that are their own synonym. Matching ignores case and accents and forgives one typo in
   * words of five letters or more.
   */
  options?: Record<string, string[]> | string[];
  /** `integer`, `number`: inclusive bounds. `date`: ISO dates (`2026-01-01`). `time`: `HH:MM`. */
  min?: number | string;
  max?: number | string;
  /**
   * `integer`, `number`: words near the number that tell it is this slot's (`['persone', 'people']`),
   * needed when a form has several numeric slots. `text`: words that mark the clause of a message
   * that is this slot's value when the slot is not the one asked ("il cambio non va" for a problem
   * with keywords `['cambio', 'non va']`).
   */
  keywords?: string[];
  /** `date`, `date-time`: `future` rejects past dates, `past` future ones. Default `any`. */
  dates?: 'future' | 'past' | 'any';
  /** `phone`: country calling code of numbers written without one. Default `39` (Italy). */
  country?: string;
  /** `regex`: the pattern (a string is compiled with the `i` flag); a named group `value` is the value. */
  pattern?: RegExp | string;
  /** `custom`: finds the value in the message; `null` when there is none. */
  parse?: (text: string) => CustomParse | SlotRejection | null;
  /**
   * Any type: checks a parsed value; `true` accepts it, a string (or `{ error }`) rejects it with
   * that message, and the slot is asked again.
   */
  validate?: (value: unknown, context: Context | null) => true | string | SlotRejection;
  /** How the value is shown in the summary (default: by type, e.g. "giovedì 3 dicembre 2026"). */
  format?: (value: unknown) => string;
}
