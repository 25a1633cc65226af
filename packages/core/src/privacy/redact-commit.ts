import type { HistoryEntry } from '../protocol/history-entry.js';
import type { OutputMessage } from '../protocol/output-message.js';
import type { Redactor } from './redactor.js';

/** The parts of a session commit that hold conversation text. */
export interface RedactableCommit {
  record: { pendingMessage: OutputMessage | null };
  history: HistoryEntry[];
}

/**
 * The commit as it may be stored: every history entry's text and the pending message redacted
 * (`redactHistoryEntry`, docs/privacy.md). The session state is the tree's own data and is left as is.
 */
export function redactCommit<T extends RedactableCommit>(commit: T, redactor: Redactor): T {
  const pending = commit.record.pendingMessage;
  return {
    ...commit,
    record: {
      ...commit.record,
      pendingMessage: pending
        ? {
            ...pending,
            content: redactor.redactText(pending.content),
            options: pending.options.map((option) => redactor.redactText(option)),
          }
        : null,
    },
    history: commit.history.map((entry) => redactHistoryEntry(entry, redactor)),
  };
}

/**
 * A history entry as it may be stored: its text (`content`, `extended`), the option the user selected
 * and the options it offered (an emit's or an operator's labels may echo what the user wrote) redacted.
 */
export function redactHistoryEntry(entry: HistoryEntry, redactor: Redactor): HistoryEntry {
  return {
    ...entry,
    content: redactor.redactText(entry.content),
    ...(entry.extended === undefined ? {} : { extended: redactor.redactText(entry.extended) }),
    ...(entry.selectedOption === undefined
      ? {}
      : { selectedOption: redactor.redactText(entry.selectedOption) }),
    ...(entry.options === undefined
      ? {}
      : { options: entry.options.map((option) => redactor.redactText(option)) }),
  };
}
