import { useT } from '../../i18n/use-t';
import type { TreeEditor } from '../use-editor';
import { editorStatusText } from './editor-page-model';

/** The editor's part of the top bar: the status, undo, redo and save. */
export function EditorToolbar({
  editor,
  problems,
  readOnly,
  saveBlocked,
}: {
  editor: TreeEditor;
  problems: number;
  readOnly: boolean;
  /** An invalid draft (or one being checked) cannot be saved. */
  saveBlocked: boolean;
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
        disabled={readOnly || !editor.dirty || saveBlocked || editor.saving}
        title={saveBlocked ? t('toolbar.invalid') : t('toolbar.saveTitle')}
        onClick={() => void editor.save()}
      >
        {editor.saving ? t('toolbar.saving') : t('toolbar.save')}
      </button>
    </>
  );
}
