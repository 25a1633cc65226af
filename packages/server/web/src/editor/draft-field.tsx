import type { JSX } from 'preact';
import { useState } from 'preact/hooks';

/** The attributes the editor's fields use. */
interface FieldAttributes {
  id?: string;
  class?: string;
  placeholder?: string;
  'aria-label'?: string;
  disabled?: boolean;
}
type InputProps = FieldAttributes & { type?: 'text' | 'number'; step?: string; min?: string; max?: string };
type AreaProps = FieldAttributes & { rows?: number };

/**
 * A text field that keeps what is being typed until it is committed (on change: blur or Enter), so
 * that the page re-rendering meanwhile (a check coming back, the disk poll) never resets it. One
 * commit is one undo step. `onCommit` returning `false` refuses the text (it does not parse): the
 * field keeps it, to be fixed, rather than going back to the value. Marked `data-draft`: the editor
 * page follows its typing (`isDraftField`) to enable Save before the commit.
 */
export function DraftInput(props: InputProps & { value: string; onCommit(value: string): boolean | void }) {
  const { value, onCommit, ...rest } = props;
  const [draft, setDraft] = useState<string | null>(null);
  // Preact types an input by its `type` (a union); these attributes fit the text and number kinds.
  const attributes = {
    ...rest,
    'data-draft': '',
    value: draft ?? value,
    onInput: (event: Event) => setDraft((event.target as HTMLInputElement).value),
    onChange: (event: Event) => commitOrKeep(event.target as HTMLInputElement, value, onCommit, setDraft),
  } as unknown as JSX.IntrinsicElements['input'];
  return <input {...attributes} />;
}

/** `DraftInput` as a textarea. */
export function DraftArea(props: AreaProps & { value: string; onCommit(value: string): boolean | void }) {
  const { value, onCommit, ...rest } = props;
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <textarea
      {...rest}
      data-draft=""
      value={draft ?? value}
      onInput={(event) => setDraft((event.target as HTMLTextAreaElement).value)}
      onChange={(event) => commitOrKeep(event.currentTarget, value, onCommit, setDraft)}
    />
  );
}

/** A field whose text is committed on change (`DraftInput`, `DraftArea`). */
export function isDraftField(target: EventTarget | null): boolean {
  return target instanceof Element && target.hasAttribute('data-draft');
}

/**
 * A field's change: its text committed (the draft dropped), or refused by `onCommit` (kept, to be
 * fixed). A refused field is marked `data-refused` at once, for `commitDraftField`.
 */
function commitOrKeep(
  field: HTMLInputElement | HTMLTextAreaElement,
  value: string,
  onCommit: (value: string) => boolean | void,
  setDraft: (draft: string | null) => void,
): void {
  if (field.value === value || onCommit(field.value) !== false) {
    field.removeAttribute('data-refused');
    setDraft(null);
  } else field.setAttribute('data-refused', '');
}

/**
 * Commits the text being typed in a draft `field` (its `change`, as on leaving it), now: Save and
 * Ctrl+S save what is on screen. `keepFocus`: the field has the focus again afterwards (Ctrl+S).
 * False when the field refused its text (it does not parse): then nothing should be saved.
 */
export function commitDraftField(field: Element | null, keepFocus = false): boolean {
  if (!isDraftField(field) || !(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement))
    return true;
  field.blur();
  if (keepFocus) field.focus();
  return !field.hasAttribute('data-refused');
}
