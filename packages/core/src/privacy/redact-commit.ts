import type { HistoryEntry } from '../protocol/history-entry.js';
import type { OutputMessage } from '../protocol/output-message.js';
import type { Redactor } from './redactor.js';

/** The parts of a session commit that hold conversation text. */
export interface RedactableCommit {
  record: { pendingMessage: OutputMessage | null };
  history: HistoryEntry[];
}

/**
 * The commit as it may be stored: every history entry's text (`content`, `extended`) and the pending
 * message redacted (docs/privacy.md). The session state is the tree's own data and is left as is.
 */
export function redactCommit<T extends RedactableCommit>(commit: T, redactor: Redactor): T {
  const pending = commit.record.pendingMessage;
  return {
    ...commit,
    record: {
      ...commit.record,
      pendingMessage: pending ? { ...pending, content: redactor.redactText(pending.content) } : null,
    },
    history: commit.history.map((entry) => ({
      ...entry,
      content: redactor.redactText(entry.content),
      ...(entry.extended === undefined ? {} : { extended: redactor.redactText(entry.extended) }),
      ...(entry.selectedOption === undefined
        ? {}
        : { selectedOption: redactor.redactText(entry.selectedOption) }),
    })),
  };
}
