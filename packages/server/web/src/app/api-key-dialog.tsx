import { useEffect, useRef } from 'preact/hooks';
import { markup } from '../i18n/markup';
import { useT } from '../i18n/use-t';

/** A pending request for an API key: the note to show, and where the answer goes. */
export interface ApiKeyPrompt {
  message: string | null;
  resolve(key: string | null): void;
}

/** The modal that asks for the server's API key (kept for the tab only). */
export function ApiKeyDialog({ prompt }: { prompt: ApiKeyPrompt | null }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const t = useT('common');
  useEffect(() => {
    const element = dialog.current;
    if (!prompt || !element || !input.current) return;
    input.current.value = '';
    const onClose = () => {
      const key = input.current?.value.trim() ?? '';
      prompt.resolve(element.returnValue === 'save' && key ? key : null);
    };
    element.addEventListener('close', onClose, { once: true });
    element.returnValue = '';
    if (!element.open) element.showModal();
    input.current.focus();
    return () => element.removeEventListener('close', onClose);
  }, [prompt]);
  return (
    <dialog id="api-key-dialog" class="dialog" aria-labelledby="api-key-title" ref={dialog}>
      <form method="dialog" class="dialog-form">
        <h2 id="api-key-title">{t('apiKey.title')}</h2>
        {prompt?.message ? (
          <p class="dialog-error" role="alert">
            {prompt.message}
          </p>
        ) : null}
        <p>{markup(t('apiKey.text'))}</p>
        <label for="api-key-input">{t('apiKey.key')}</label>
        <input id="api-key-input" type="password" autocomplete="off" required ref={input} />
        <div class="dialog-actions">
          <button value="cancel" type="submit" formNoValidate class="ghost-button">
            {t('cancel')}
          </button>
          <button value="save" type="submit" class="primary-button">
            {t('save')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
