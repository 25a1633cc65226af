import { useEffect, useState } from 'preact/hooks';
import type { CannedResponseView } from '../../../../src/api-types';
import { cannedApi } from '../../api/canned-api';
import { useApp } from '../../app/app-context';
import {
  type CannedSelection,
  cannedMatches,
  insertCanned,
  moveSelection,
  selectedIndex,
} from './canned-model';

/** What the reply box needs of the canned responses a typed `/shortcut` offers. */
export interface CannedSuggestionsState {
  matches: CannedResponseView[];
  /** The highlighted match (arrows move it, Enter or Tab inserts it). */
  active: number;
  /** Inserts a match in place of the typed `/shortcut`. */
  choose: (response: CannedResponseView) => void;
  /** Handles the arrows, Enter, Tab and Escape while matches show; `true` when it did. */
  onKeyDown: (event: KeyboardEvent) => boolean;
}

/**
 * The canned responses of the operator's teams (loaded once per session shown), the ones the
 * reply's `/prefix` matches, and the keyboard over them; a chosen one is filled from `state`.
 */
export function useCannedResponses(
  reply: string,
  team: string | null,
  state: Record<string, unknown>,
  setReply: (text: string) => void,
): CannedSuggestionsState {
  const { api } = useApp();
  const [responses, setResponses] = useState<CannedResponseView[]>([]);
  const [selection, setSelection] = useState<CannedSelection | null>(null);
  const [dismissed, setDismissed] = useState<string | null>(null);

  useEffect(() => {
    // Without canned responses the reply box works as before: a failed load shows no suggestions.
    void cannedApi
      .list(api)
      .then((body) => setResponses(body.responses))
      .catch(() => setResponses([]));
  }, [api]);

  const matches = dismissed === reply ? [] : cannedMatches(reply, responses, team);
  // Derived, not reset by an effect: a key pressed before an effect runs would be undone by it.
  const current = selectedIndex(selection, reply, matches);

  const choose = (response: CannedResponseView) => {
    setReply(insertCanned(reply, response, state));
    setSelection(null);
  };

  const onKeyDown = (event: KeyboardEvent): boolean => {
    if (matches.length === 0) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      setSelection(moveSelection(selection, reply, matches, event.key === 'ArrowDown' ? 1 : -1));
    } else if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
      choose(matches[current]!);
    } else if (event.key === 'Escape') {
      setDismissed(reply);
    } else return false;
    event.preventDefault();
    return true;
  };

  return { matches, active: current, choose, onKeyDown };
}
