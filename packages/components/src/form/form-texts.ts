import { type LocalizedText, textIn } from '@treeagent/core';
import type { FormSlotReport } from '@treeagent/core/client';
import type { FormLanguage, SlotDefinition } from '../slots/slot-definition.js';
import type { FormState } from './form-state.js';
import { formatValue } from './format-value.js';
import type { FormMessages } from './messages.js';

/** The question for the awaited slot, after the reason the last reply was refused (if any). */
export function askText(
  state: FormState,
  slots: readonly SlotDefinition[],
  messages: FormMessages,
  language: FormLanguage,
  intro?: LocalizedText,
): string {
  if (state.changing) return messages.whatToChange;
  const found = slots.find((item) => item.name === state.awaiting) ?? slots[0]!;
  const slot = {
    question: textIn(found.question, language, null),
    reask: found.reask === undefined ? undefined : textIn(found.reask, language, null),
  };
  const reason = state.reason;
  let text = slot.question;
  if (reason) {
    const why =
      reason.error === 'resume'
        ? messages.resume
        : reason.error === 'required'
          ? messages.required
          : reason.error === 'not-understood'
            ? messages.notUnderstood
            : (reason.message ?? messages.errors[reason.error]);
    // The author's `reask` says why on its own; a validator's message and the defaults go before the question.
    if (reason.error === 'resume') text = `${why} ${slot.question}`;
    else if (reason.message) text = `${reason.message} ${slot.reask ?? slot.question}`;
    else text = slot.reask ?? `${why} ${slot.question}`;
  }
  return intro ? `${textIn(intro, language, null)} ${text}` : text;
}

/** The summary and the confirmation question. */
export function confirmText(
  state: FormState,
  slots: readonly SlotDefinition[],
  messages: FormMessages,
  language: FormLanguage,
  timeZone: string,
): string {
  const lines = slots.map((slot) => {
    const value = state.values[slot.name];
    const shown = value === undefined ? messages.empty : formatValue(slot, value, language, timeZone);
    return `- ${slot.label === undefined ? slot.name : textIn(slot.label, language, null)}: ${shown}`;
  });
  const again = state.reason?.error === 'not-understood' ? `${messages.notUnderstood} ` : '';
  return `${again}${messages.summaryIntro}\n${lines.join('\n')}\n${messages.confirmQuestion}`;
}

/** What the debug view shows of a form after a message (`serverMetadata.forms[name]`). */
export interface FormDebugSummary {
  status: string;
  awaiting: string | null;
  attempts: number;
  slots: FormSlotReport[];
  /** What this message gave: values with their parser, and refused values. */
  message: FormState['log'][number] | null;
}

export function formDebugSummary(
  state: FormState | undefined,
  status: string,
  slots: readonly SlotDefinition[],
  language: FormLanguage,
  timeZone: string,
): FormDebugSummary {
  return {
    status,
    awaiting: state?.awaiting ?? null,
    attempts: state?.attempts ?? 0,
    slots: slots.map((slot) => {
      const value = state?.values[slot.name];
      const source = state?.sources[slot.name];
      return {
        name: slot.name,
        type: slot.type,
        required: slot.required !== false,
        value: value ?? null,
        display: value === undefined ? null : formatValue(slot, value, language, timeZone),
        parser: source?.parser ?? null,
        text: source?.text ?? null,
        skipped: state?.skipped.includes(slot.name) ?? false,
      };
    }),
    message: state?.log.at(-1) ?? null,
  };
}
