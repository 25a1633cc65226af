import { useT } from '../../i18n/use-t';
import { commitDraftField } from '../draft-field';
import type { TreeEditor } from '../use-editor';
import { editorStatusText } from './editor-page-model';

/** The editor's part of the top bar: the status, undo, redo and save. */
export function EditorToolbar({
  editor,
  problems,
  readOnly,
  saveBlocked,
  typing,
}: {
  editor: TreeEditor;
  problems: number;
  readOnly: boolean;
  /** An invalid draft (or one being checked) cannot be saved. */
  saveBlocked: boolean;
  /** A field holds text not committed yet: Save commits it, then saves once it is checked. */
  typing: boolean;
}) {
  const t = useT('editor');
  return (
    <>
      <span
        id="editor-status"
        class={`editor-status${problems ? ' is-invalid' : editor.dirty ? ' is-dirty' : ''}`}
      >
        {editorStatusText({ checking: editor.checking, problems, dirty: editor.dirty })}
      </span>
      <button
        type="button"
        id="undo"
        class="button-small"
        disabled={!editor.canUndo}
        onClick={editor.undo}
        title={t('toolbar.undoTitle')}
      >
        {t('toolbar.undo')}
      </button>
      <button
        type="button"
        id="redo"
        class="button-small"
        disabled={!editor.canRedo}
        onClick={editor.redo}
        title={t('toolbar.redoTitle')}
      >
        {t('toolbar.redo')}
      </button>
      <button
        type="button"
        id="save"
        class="button-primary button-small"
        disabled={
          readOnly || editor.saving || (!typing && !editor.saveWanted && (!editor.dirty || saveBlocked))
        }
        title={saveBlocked && !typing ? t('toolbar.invalid') : t('toolbar.saveTitle')}
        // Pressing the button would take the focus from the field, commit its text and start a check,
        // and the button would be disabled before the click: while a field is being typed in, the
        // press keeps the focus there, and the click (not the press: a press dragged off the button
        // saves nothing) commits the field, then asks for the save (made once the check is back).
        onMouseDown={(event) => {
          if (typing) event.preventDefault();
        }}
        onClick={() => {
          if (commitDraftField(document.activeElement)) editor.requestSave();
        }}
      >
        {editor.saving ? t('toolbar.saving') : t('toolbar.save')}
      </button>
    </>
  );
}
