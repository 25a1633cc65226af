import { useEffect, useRef } from 'preact/hooks';

/** A pending request for an API key: the note to show, and where the answer goes. */
export interface ApiKeyPrompt {
  message: string | null;
  resolve(key: string | null): void;
}

/** The modal that asks for the server's API key (kept for the tab only). */
export function ApiKeyDialog({ prompt }: { prompt: ApiKeyPrompt | null }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
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
        <h2 id="api-key-title">API key</h2>
        {prompt?.message ? (
          <p class="dialog-error" role="alert">
            {prompt.message}
          </p>
        ) : null}
        <p>
          This server needs an API key (<code>Authorization: Bearer …</code>). It is kept for this tab only.
        </p>
        <label for="api-key-input">Key</label>
        <input id="api-key-input" type="password" autocomplete="off" required ref={input} />
        <div class="dialog-actions">
          <button value="cancel" type="submit" formNoValidate class="ghost-button">
            Cancel
          </button>
          <button value="save" type="submit" class="primary-button">
            Save
          </button>
        </div>
      </form>
    </dialog>
  );
}
