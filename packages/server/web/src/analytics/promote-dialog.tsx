import { useEffect, useRef, useState } from 'preact/hooks';
import { versionsApi } from '../api/versions-api';
import { useApp } from '../app/app-context';
import { useT } from '../i18n/use-t';

/** The variant an admin asked to promote, in which environment's experiment. */
export interface PromoteRequest {
  environment: string;
  experiment: string;
  version: string;
}

/**
 * The confirmation of "Promote" in the experiment view (docs/versions.md): says what happens (the
 * variant published to the environment, the experiment ended), asks why, and calls
 * `POST /api/v1/versions/experiments/:environment/promote` — what `treeagent experiment --promote`
 * does. `onDone` gets the outcome's text once promoted, `null` when cancelled.
 */
export function PromoteDialog({
  request,
  onDone,
}: {
  request: PromoteRequest | null;
  onDone: (promoted: string | null) => void;
}) {
  const { api } = useApp();
  const t = useT('analytics');
  const dialog = useRef<HTMLDialogElement>(null);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!request || !element) return;
    setMessage(t('experiment.promoteDefaultMessage', { name: request.experiment }));
    setError(null);
    if (!element.open) element.showModal();
  }, [request, t]);
  if (!request) return null;
  const close = (promoted: string | null) => {
    dialog.current?.close();
    onDone(promoted);
  };
  const promote = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await versionsApi.promote(api, request.environment, request.version, message);
      close(
        t('experiment.promoted', {
          version: request.version,
          environment: request.environment,
          name: request.experiment,
        }),
      );
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <dialog
      id="promote-dialog"
      class="dialog"
      aria-labelledby="promote-title"
      ref={dialog}
      onCancel={() => onDone(null)}
    >
      <form class="dialog-form" onSubmit={promote}>
        <h2 id="promote-title">{t('experiment.promote', { version: request.version })}</h2>
        <p>
          {t('experiment.promoteConfirm', {
            version: request.version,
            environment: request.environment,
            name: request.experiment,
          })}
        </p>
        {error ? (
          <p class="dialog-error" role="alert">
            {error}
          </p>
        ) : null}
        <label for="promote-message">{t('experiment.promoteMessage')}</label>
        <input
          id="promote-message"
          name="promote-message"
          required
          value={message}
          onInput={(event) => setMessage(event.currentTarget.value)}
        />
        <div class="dialog-actions">
          <button type="button" class="ghost-button" onClick={() => close(null)}>
            {t('experiment.promoteCancel')}
          </button>
          <button type="submit" class="primary-button" disabled={busy}>
            {t('experiment.promoteAction')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
