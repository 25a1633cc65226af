import { useEffect } from 'preact/hooks';
import { commitDraftField } from '../draft-field';
import type { TreeEditor } from '../use-editor';

/** Which editor command a key press is (Ctrl or ⌘ with S, Z, Shift+Z, Y), or null; undo and redo not while typing in a field. */
export function shortcutOf(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  inField: boolean;
}): 'save' | 'undo' | 'redo' | null {
  if (!event.ctrlKey && !event.metaKey) return null;
  const key = event.key.toLowerCase();
  if (key === 's') return 'save';
  if (event.inField) return null;
  if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
  if (key === 'y') return 'redo';
  return null;
}

/** The editor's keyboard shortcuts on the window: save (Ctrl+S), undo (Ctrl+Z), redo (Ctrl+Shift+Z, Ctrl+Y). */
export function useEditorShortcuts(editor: TreeEditor): void {
  useEffect(() => {
    const keys = (event: KeyboardEvent) => {
      const inField = Boolean((event.target as Element | null)?.closest?.('input, textarea, select'));
      const { key, ctrlKey, metaKey, shiftKey } = event;
      const command = shortcutOf({ key, ctrlKey, metaKey, shiftKey, inField });
      if (!command) return;
      event.preventDefault();
      if (command === 'save') {
        // A field that refuses its text (it does not parse) keeps it, with its error: nothing saved.
        if (commitDraftField(event.target as Element | null, true)) editor.requestSave();
      } else if (command === 'undo') editor.undo();
      else editor.redo();
    };
    window.addEventListener('keydown', keys);
    return () => window.removeEventListener('keydown', keys);
  }, [editor]);
}
