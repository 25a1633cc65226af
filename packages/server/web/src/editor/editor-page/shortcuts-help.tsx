import { useEffect, useRef } from 'preact/hooks';
import { useT } from '../../i18n/use-t';
import { inField } from './use-tree-keys';

/** The editor's keyboard shortcuts, as the help dialog lists them (keys, then what they do: a catalog key). */
export const SHORTCUTS: [keys: string, what: string][] = [
  ['Ctrl+S / ⌘S', 'save'],
  ['Ctrl+Z / ⌘Z', 'undo'],
  ['Ctrl+Shift+Z / Ctrl+Y', 'redo'],
  ['↑', 'parent'],
  ['↓', 'child'],
  ['← / →', 'sibling'],
  ['Alt+↑ / Alt+←', 'earlier'],
  ['Alt+↓ / Alt+→', 'later'],
  ['A', 'addChild'],
  ['Delete / Backspace', 'delete'],
  ['?', 'help'],
];

/** The “?” button of the editor's top bar and the dialog it opens (also with the ? key) listing the shortcuts. */
export function ShortcutsHelp() {
  const t = useT('editor');
  const dialog = useRef<HTMLDialogElement>(null);
  const open = () => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  };
  useEffect(() => {
    const keys = (event: KeyboardEvent) => {
      if (event.key !== '?' || event.ctrlKey || event.metaKey || inField(event.target)) return;
      event.preventDefault();
      open();
    };
    window.addEventListener('keydown', keys);
    return () => window.removeEventListener('keydown', keys);
  });
  return (
    <>
      <button
        type="button"
        id="shortcuts-button"
        class="ghost-button"
        title={t('shortcuts.title')}
        aria-label={t('shortcuts.title')}
        onClick={open}
      >
        ?
      </button>
      <dialog id="shortcuts-dialog" class="dialog" aria-labelledby="shortcuts-title" ref={dialog}>
        <form method="dialog" class="dialog-form">
          <h2 id="shortcuts-title">{t('shortcuts.title')}</h2>
          <table class="shortcuts-table">
            <tbody>
              {SHORTCUTS.map(([keys, what]) => (
                <tr key={what}>
                  <th scope="row" class="shortcut-keys">
                    <kbd>{keys}</kbd>
                  </th>
                  <td class="shortcut-what">{t(`shortcuts.${what}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p>{t('shortcuts.outsideFields')}</p>
          <div class="dialog-actions">
            <button value="close" type="submit" class="primary-button">
              {t('shortcuts.close')}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
