import type { Context } from '@treeagent/core';
import type { Extraction, ExtractionMiss } from '../slots/extract-slots.js';
import type { SlotErrorCode, SlotSource } from '../slots/slot-definition.js';

/** One message as the form read it, for the debug view. */
export interface FormLogEntry {
  turn: number;
  extracted: Extraction[];
  misses: ExtractionMiss[];
  /** What the form did next: `ask`, `confirm`, `complete`, `cancel`, `explore`, `reask`, `llm`, `give-up`. */
  outcome: string;
}

/**
 * The state of one form in progress, kept in the session state under `form:<name>` (plain JSON, so it
 * survives restarts with the session).
 */
export interface FormState {
  /** `collecting` slots, or `confirming` the summary. */
  status: 'collecting' | 'confirming';
  values: Record<string, unknown>;
  sources: Record<string, SlotSource>;
  /** Optional slots the user did not know. */
  skipped: string[];
  /** The slot asked for; `null` while confirming. */
  awaiting: string | null;
  /** Replies to the current question without a valid value. */
  attempts: number;
  /** Why the last reply was refused, for the next question. */
  reason: { error: SlotErrorCode | 'required' | 'not-understood' | 'resume'; message?: string } | null;
  /** Half of a date-time waiting for the other half, by slot. */
  partials: Record<string, { date?: string; time?: string }>;
  /** The interaction in which the last reply went to exploration (a possible digression). */
  exploredAt: number | null;
  /** The interaction in which the LLM extraction last read a message (it reads each message once). */
  llmAt: number | null;
  /** After a "no" to the summary: the next reply says what to change. */
  changing: boolean;
  /** Interaction of the last progress. */
  lastTurn: number;
  /** The last messages as the form read them (at most 20). */
  log: FormLogEntry[];
}

/** Session-state key of a form's state. */
export const formKey = (name: string) => `form:${name}`;
/** Session-state key of the form waiting for replies: `{ name, resumeNodeId }`. */
export const ACTIVE_FORM_KEY = 'form:active';

/** The form the conversation is in (started and not finished), as `formFallback` reads it. */
export interface ActiveForm {
  name: string;
  /** The form's resume node: where a reply that nothing else took goes back to. */
  resumeNodeId: number;
  /** The form's `expireAfterTurns`. */
  expireAfterTurns: number;
}

export function newFormState(turn: number): FormState {
  return {
    status: 'collecting',
    values: {},
    sources: {},
    skipped: [],
    awaiting: null,
    attempts: 0,
    reason: null,
    partials: {},
    exploredAt: null,
    llmAt: null,
    changing: false,
    lastTurn: turn,
    log: [],
  };
}

export function loadFormState(context: Context, name: string): FormState | undefined {
  return context.sessionState.get<FormState>(formKey(name));
}

export function saveFormState(
  context: Context,
  name: string,
  state: FormState,
  resumeNodeId: number,
  expireAfterTurns: number,
): void {
  context.sessionState.set(formKey(name), { ...state, log: state.log.slice(-20) });
  context.sessionState.set(ACTIVE_FORM_KEY, { name, resumeNodeId, expireAfterTurns } satisfies ActiveForm);
}

export function clearFormState(context: Context, name: string): void {
  context.sessionState.delete(formKey(name));
  if (context.sessionState.get<ActiveForm>(ACTIVE_FORM_KEY)?.name === name)
    context.sessionState.delete(ACTIVE_FORM_KEY);
}

/** The form in progress in this session, if any. */
export function activeForm(context: Context): ActiveForm | undefined {
  return context.sessionState.get<ActiveForm>(ACTIVE_FORM_KEY);
}
