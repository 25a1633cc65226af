import { useT } from '../../i18n/use-t';
import type { TreeEditor } from '../use-editor';

/** Above the editor: the file (and why it is read-only), a change on disk with its choices, a failed save, a notice. */
export function EditorBanners({
  editor,
  file,
  readOnly,
  saveBlocked,
  notice,
}: {
  editor: TreeEditor;
  file: NonNullable<TreeEditor['file']>;
  readOnly: boolean;
  saveBlocked: boolean;
  notice: string | null;
}) {
  const t = useT('editor');
  return (
    <>
      <div class="editor-file">
        <code>{file.path}</code>
        {readOnly && file.readOnlyReason ? <p class="note">{file.readOnlyReason}</p> : null}
      </div>
      {editor.changedOnDisk ? (
        <div id="disk-conflict" class="banner is-warning" role="alert">
          {t('banners.changedOnDisk')}{' '}
          <button
            type="button"
            id="reload-from-disk"
            class="button-small"
            onClick={() => void editor.reload()}
          >
            {editor.dirty ? t('banners.reloadDropping') : t('banners.reload')}
          </button>
          {editor.dirty ? (
            <button
              type="button"
              id="overwrite"
              class="button-small is-danger"
              disabled={saveBlocked}
              onClick={() => void editor.save(true)}
            >
              {t('banners.overwrite')}
            </button>
          ) : null}
        </div>
      ) : null}
      {editor.saveError ? (
        <p id="save-error" class="banner is-error" role="alert">
          {editor.saveError}
        </p>
      ) : null}
      {notice ? (
        <p id="editor-notice" class="banner is-warning" role="status">
          {notice}
        </p>
      ) : null}
    </>
  );
}
