import type { BasePromptOutput, BaseResponseFormatOutput, Context, JsonSchema } from '@treeagent/core';
import { textIn } from '@treeagent/core';
import { isoDate, isoTime, parseIsoDate, zonedDateTime } from '../slots/calendar.js';
import { parseEmails } from '../slots/email-parser.js';
import { parseEnum } from '../slots/enum-parser.js';
import { type Extraction, type ExtractionMiss, validate } from '../slots/extract-slots.js';
import type { ParseClock } from '../slots/parse-types.js';
import { parsePhones } from '../slots/phone-parser.js';
import type { SlotDefinition } from '../slots/slot-definition.js';
import { fold } from '../slots/text.js';

/*
 * The LLM extraction: an `llm` node whose JSON schema has one nullable property per slot the
 * message may fill. Its answer is not trusted: every value goes through the slot's parser and
 * validator, exactly like a value the deterministic parsers read.
 */

function propertyOf(slot: SlotDefinition): Record<string, unknown> {
  const description = slot.description ?? textIn(slot.question, null, null);
  switch (slot.type) {
    case 'integer':
      return { type: ['integer', 'null'], description };
    case 'number':
      return { type: ['number', 'null'], description };
    case 'enum': {
      const values = Array.isArray(slot.options) ? slot.options : Object.keys(slot.options ?? {});
      return { type: ['string', 'null'], enum: [...values, null], description };
    }
    case 'date':
      return { type: ['string', 'null'], description: `${description} (YYYY-MM-DD)` };
    case 'time':
      return { type: ['string', 'null'], description: `${description} (HH:MM, 24 hours)` };
    case 'date-time':
      return { type: ['string', 'null'], description: `${description} (YYYY-MM-DDTHH:MM)` };
    default:
      return { type: ['string', 'null'], description };
  }
}

/** The JSON schema the model answers with: the open slots, each nullable. */
export function extractionSchema(slots: readonly SlotDefinition[]): JsonSchema {
  return {
    type: 'object',
    title: 'FormSlots',
    properties: Object.fromEntries(slots.map((slot) => [slot.name, propertyOf(slot)])),
    required: slots.map((slot) => slot.name),
    additionalProperties: false,
  } as JsonSchema;
}

/** The response format of the extraction node. */
export function extractionFormat(slots: readonly SlotDefinition[]): BaseResponseFormatOutput {
  return { schema: extractionSchema(slots), attemptsLimit: 2 };
}

/** The prompt of the extraction node: today's date, the slots, the values known, the message. */
export function extractionPrompt(
  slots: readonly SlotDefinition[],
  known: Record<string, unknown>,
  message: string,
  clock: ParseClock,
): BasePromptOutput {
  const todayText = new Intl.DateTimeFormat('en-GB', {
    timeZone: clock.timeZone,
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  }).format(clock.now);
  return {
    systemPrompt: `You extract the values of a form's fields from the user's message. Today is ${todayText} (${clock.timeZone}). Answer only with the JSON object: null for every field the message does not give. Never invent a value.`,
    prompt: [
      'Fields:',
      ...slots.map(
        (slot) => `- ${slot.name} (${slot.type}): ${slot.description ?? textIn(slot.question, null, null)}`,
      ),
      Object.keys(known).length ? `Already known: ${JSON.stringify(known)}` : '',
      `Message: ${message}`,
    ]
      .filter(Boolean)
      .join('\n'),
    modelParams: { temperature: 0 },
  };
}

/** A value of the model, read by the slot's own parser; `undefined` when it is none. */
function readValue(slot: SlotDefinition, raw: unknown, clock: ParseClock): unknown {
  const text = typeof raw === 'string' ? raw.trim() : raw;
  switch (slot.type) {
    case 'integer':
    case 'number': {
      const value = typeof text === 'number' ? text : Number(String(text).replace(',', '.'));
      return Number.isFinite(value) ? value : undefined;
    }
    case 'date': {
      const date = parseIsoDate(String(text));
      return date ? isoDate(date) : undefined;
    }
    case 'time': {
      const match = /^(\d{1,2}):(\d{2})/.exec(String(text));
      return match && Number(match[1]) < 24 && Number(match[2]) < 60
        ? isoTime(Number(match[1]), Number(match[2]))
        : undefined;
    }
    case 'date-time': {
      const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{1,2}):(\d{2})/.exec(String(text));
      const date = match ? parseIsoDate(match[1]!) : null;
      return date && Number(match![2]) < 24
        ? zonedDateTime(date, Number(match![2]), Number(match![3]), clock.timeZone)
        : undefined;
    }
    case 'phone': {
      const found = parsePhones(String(text), { country: slot.country ?? '39' }).values;
      return found.length === 1 ? found[0]!.value : undefined;
    }
    case 'email': {
      const found = parseEmails(String(text)).values;
      return found.length === 1 ? found[0]!.value : undefined;
    }
    case 'enum': {
      const values = Array.isArray(slot.options) ? slot.options : Object.keys(slot.options ?? {});
      if (values.includes(String(text))) return String(text);
      const found = parseEnum(fold(String(text)), slot.options ?? []).values;
      return found[0]?.value;
    }
    case 'regex': {
      const pattern = typeof slot.pattern === 'string' ? new RegExp(slot.pattern, 'i') : slot.pattern;
      const match = pattern
        ? new RegExp(pattern.source, pattern.flags.replace('g', '')).exec(String(text))
        : null;
      return match ? (match.groups?.value ?? match[0]) : undefined;
    }
    case 'custom': {
      const found = slot.parse?.(String(text));
      return found && !('error' in found) ? found.value : undefined;
    }
    default:
      return typeof text === 'string' && text ? text : undefined;
  }
}

/** The model's answer as extractions, each value parsed and validated like any other; the rest refused. */
export function readExtraction(
  object: unknown,
  slots: readonly SlotDefinition[],
  clock: ParseClock,
  context: Context | null,
): { extracted: Extraction[]; misses: ExtractionMiss[] } {
  const extracted: Extraction[] = [];
  const misses: ExtractionMiss[] = [];
  if (!object || typeof object !== 'object') return { extracted, misses };
  for (const slot of slots) {
    const raw = (object as Record<string, unknown>)[slot.name];
    if (raw === null || raw === undefined || raw === '') continue;
    const value = readValue(slot, raw, clock);
    const shown = typeof raw === 'string' ? raw : JSON.stringify(raw);
    if (value === undefined) {
      misses.push({ slot: slot.name, error: 'invalid', text: shown });
      continue;
    }
    const problem = validate(slot, value, context);
    if (problem) misses.push({ slot: slot.name, ...problem, text: shown });
    else extracted.push({ slot: slot.name, value, parser: 'llm', text: shown, correction: false });
  }
  return { extracted, misses };
}
