import { useT } from '../../i18n/use-t';
import type { CannedSuggestionsState } from './use-canned-responses';
import './canned.css';

/** The id of the list, for the reply box's `aria-controls`. */
export const CANNED_LIST_ID = 'canned-suggestions';

/** The id of a suggestion, for the reply box's `aria-activedescendant`. */
export const cannedOptionId = (id: string) => `canned-option-${id}`;

/** The canned responses a typed `/shortcut` offers, under the reply box (a listbox the keyboard drives). */
export function CannedSuggestions({ matches, active, choose }: CannedSuggestionsState) {
  const t = useT('console');
  if (matches.length === 0) return null;
  return (
    <div id={CANNED_LIST_ID} class="canned-suggestions" role="listbox" aria-label={t('canned.suggestions')}>
      {matches.map((response, index) => (
        <div
          key={response.id}
          tabIndex={-1}
          id={cannedOptionId(response.id)}
          role="option"
          aria-selected={index === active}
          class={index === active ? 'active' : undefined}
          onMouseDown={(event) => {
            event.preventDefault();
            choose(response);
          }}
        >
          <strong>/{response.shortcut}</strong> <span class="muted">{response.text}</span>
        </div>
      ))}
    </div>
  );
}
