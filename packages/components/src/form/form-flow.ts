import type { Context } from '@treeagent/core';
import { type Extraction, type ExtractionMiss, extractSlots } from '../slots/extract-slots.js';
import { isCancel, isDontKnow, isNo, isYes } from '../slots/intents.js';
import type { ParseClock } from '../slots/parse-types.js';
import type { SlotDefinition } from '../slots/slot-definition.js';
import type { FormLogEntry, FormState } from './form-state.js';

/*
 * What a form does with one message, as a pure function of its state: the step loop's callbacks
 * (form.ts) only load the state, call `readMessage` and go where it says.
 */

/** Where the form goes after a message. */
export type FormStep =
  /** Ask `state.awaiting` (again, with `state.reason`), or what to change after a "no". */
  | 'ask'
  /** Show the summary and ask for confirmation. */
  | 'confirm'
  /** Everything is there (and confirmed): run `onComplete`. */
  | 'complete'
  | 'cancel'
  /** Nothing for the form: let exploration answer it (a digression), and come back through `formFallback`. */
  | 'explore'
  /** Let the LLM extraction read what the parsers could not. */
  | 'llm'
  /** Asked too many times: leave the form. */
  | 'give-up';

/**
 * How the message reached the form:
 * - `start`: it led exploration to the form (its trigger);
 * - `reply`: the reply to the form's question;
 * - `resumed`: exploration found nothing else for it and the agent's fallback brought it back;
 * - `llm`: the LLM extraction has read it (`llm` holds what it found).
 */
export type FormPhase = 'start' | 'reply' | 'resumed' | 'llm';

/** What `readMessage` needs. */
export interface ReadMessageInput {
  state: FormState;
  text: string;
  /** The option the user picked, if any (the confirmation's yes / no). */
  selectedOption: string | null;
  phase: FormPhase;
  /** For phase `llm`: the values the model gave, validated, and those refused. */
  llm?: { extracted: Extraction[]; misses: ExtractionMiss[]; from: FormPhase };
  turn: number;
  slots: readonly SlotDefinition[];
  clock: ParseClock;
  context: Context | null;
  confirm: boolean;
  maxReasks: number;
  /** An LLM extraction is configured. */
  llmAvailable: boolean;
  yes: string;
  no: string;
}

/** The form's next state, where it goes, and the log line of this message. */
export interface ReadMessageResult {
  state: FormState;
  step: FormStep;
  entry: FormLogEntry;
}

/** Reads one message into the form's state and decides the next step. */
export function readMessage(input: ReadMessageInput): ReadMessageResult {
  const state: FormState = structuredClone(input.state);
  const { text, slots, turn } = input;
  const origin = input.phase === 'llm' ? (input.llm?.from ?? 'reply') : input.phase;
  const done = (
    step: FormStep,
    extracted: Extraction[] = [],
    misses: ExtractionMiss[] = [],
  ): ReadMessageResult => {
    if (step !== 'explore') state.exploredAt = step === 'llm' ? state.exploredAt : null;
    if (step === 'explore') state.exploredAt = turn;
    return { state, step, entry: { turn, extracted, misses, outcome: step } };
  };
  /** A reply that gave nothing: explore it first; once exploration found nothing too, ask again. */
  const nothing = (misses: ExtractionMiss[], retry: 'ask' | 'confirm'): ReadMessageResult => {
    const miss = misses.find((item) => item.slot === state.awaiting) ?? misses[0];
    if (!miss && origin === 'reply') return done('explore', [], misses);
    if (!miss && origin === 'start') return done(next(state, slots, input.confirm), [], misses);
    if (!miss && state.exploredAt !== null && state.exploredAt < turn) {
      // Back after a digression another node answered: ask again, without counting it.
      state.reason = { error: 'resume' };
      return done(retry, [], misses);
    }
    state.attempts += 1;
    if (state.attempts > input.maxReasks) return done('give-up', [], misses);
    state.reason = miss
      ? { error: miss.error, ...(miss.message ? { message: miss.message } : {}) }
      : { error: 'not-understood' };
    return done(retry, [], misses);
  };

  if (input.phase !== 'llm' && isCancel(text)) return done('cancel');

  if (state.status === 'confirming') {
    const read = extractSlots({
      text,
      slots,
      values: state.values,
      awaited: null,
      clock: input.clock,
      partials: state.partials,
      context: input.context,
    });
    if (read.extracted.length) {
      apply(state, read.extracted, turn);
      state.partials = read.partials;
      state.changing = false;
      state.reason = null;
      state.attempts = 0;
      return done(next(state, slots, input.confirm), read.extracted, read.misses);
    }
    const said = input.selectedOption ?? text;
    if (!state.changing && (said === input.yes || isYes(said))) return done('complete');
    if (!state.changing && (said === input.no || isNo(said))) {
      state.changing = true;
      state.reason = null;
      state.attempts = 0;
      return done('ask');
    }
    return nothing(read.misses, state.changing ? 'ask' : 'confirm');
  }

  let extracted: Extraction[];
  let misses: ExtractionMiss[];
  if (input.phase === 'llm') {
    extracted = input.llm?.extracted ?? [];
    misses = input.llm?.misses ?? [];
  } else {
    const read = extractSlots({
      text,
      slots,
      values: state.values,
      awaited: input.phase === 'start' ? null : state.awaiting,
      clock: input.clock,
      partials: state.partials,
      context: input.context,
    });
    // "non lo so" is no description: an awaited text slot does not take it; nor does it take a
    // question before exploration had a look at it (a digression: "quanto costa la spedizione?").
    const question = input.phase === 'reply' && /\?\s*$/.test(text);
    extracted =
      isDontKnow(text) || question ? read.extracted.filter((item) => item.parser !== 'text') : read.extracted;
    misses = read.misses;
    state.partials = read.partials;
  }
  apply(state, extracted, turn);
  const awaited = slots.find((slot) => slot.name === state.awaiting);
  const gotAwaited = extracted.some((item) => item.slot === state.awaiting);
  if (input.phase !== 'llm' && awaited && !gotAwaited && isDontKnow(text)) {
    if (awaited.required === false) {
      state.skipped.push(awaited.name);
      if (awaited.default !== undefined) {
        state.values[awaited.name] = awaited.default;
        state.sources[awaited.name] = { parser: 'default', text, turn };
      }
      state.attempts = 0;
      state.reason = null;
      return done(next(state, slots, input.confirm), extracted, misses);
    }
    state.attempts += 1;
    if (state.attempts > input.maxReasks) return done('give-up', extracted, misses);
    state.reason = { error: 'required' };
    return done('ask', extracted, misses);
  }
  const missing = slots.some(
    (slot) => state.values[slot.name] === undefined && !state.skipped.includes(slot.name),
  );
  const wordy = /\p{L}{2,}.*\s+.*\p{L}{2,}/u.test(text);
  if (
    (input.phase === 'reply' || input.phase === 'resumed') &&
    input.llmAvailable &&
    state.llmAt !== turn &&
    missing &&
    !gotAwaited &&
    wordy &&
    !misses.some((miss) => miss.slot === state.awaiting)
  ) {
    state.llmAt = turn;
    return { state, step: 'llm', entry: { turn, extracted, misses, outcome: 'llm' } };
  }
  if (extracted.length) {
    if (gotAwaited || !awaited) state.attempts = 0;
    state.reason = null;
    const step = next(state, slots, input.confirm);
    // "lunedì alle 20": the day is taken, and the time asked next says why 20:00 was not.
    const refused = misses.find((miss) => miss.slot === state.awaiting);
    if (step === 'ask' && refused)
      state.reason = { error: refused.error, ...(refused.message ? { message: refused.message } : {}) };
    return done(step, extracted, misses);
  }
  if (input.phase === 'llm' && origin === 'start')
    return done(next(state, slots, input.confirm), extracted, misses);
  return nothing(misses, 'ask');
}

/** Records the values; a slot given again after "I don't know" is no longer skipped. */
function apply(state: FormState, extracted: readonly Extraction[], turn: number): void {
  for (const item of extracted) {
    state.values[item.slot] = item.value;
    state.sources[item.slot] = { parser: item.parser, text: item.text, turn };
    state.skipped = state.skipped.filter((name) => name !== item.slot);
  }
  if (extracted.length) state.lastTurn = turn;
}

/** The next question, the confirmation, or completion; sets `awaiting` and `status`. */
function next(state: FormState, slots: readonly SlotDefinition[], confirm: boolean): FormStep {
  const open = slots.find(
    (slot) => state.values[slot.name] === undefined && !state.skipped.includes(slot.name),
  );
  if (open) {
    if (state.awaiting !== open.name) {
      state.attempts = 0;
      state.reason = null;
    }
    state.awaiting = open.name;
    state.status = 'collecting';
    return 'ask';
  }
  state.awaiting = null;
  state.changing = false;
  if (!confirm) return 'complete';
  state.status = 'confirming';
  return 'confirm';
}

export { next as nextStep };
