import { useEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from '../../api/api-client';
import { routingApi } from '../../api/routing-api';
import { useApp } from '../../app/app-context';
import { useT } from '../../i18n/use-t';
import { useOperator } from '../operator-gate';
import {
  firstTarget,
  type TransferTargets,
  targetValue,
  transferRequest,
  transferTargets,
} from './transfer-model';

/**
 * **Transfer** in a conversation's actions: a dialog to pass the conversation to another team (it
 * waits in that team's queue) or to an operator online (they hold it at once), with an optional
 * internal note, then `POST /api/v1/operator/routing/handoffs/:id/transfer`. The targets come from
 * the console's presence and teams when the dialog opens. `onTransferred` runs once it is passed on.
 */
export function TransferButton({
  sessionId,
  team,
  onTransferred,
}: {
  sessionId: string;
  /** The conversation's team now (not offered as a target). */
  team: string;
  onTransferred: () => void;
}) {
  const { api } = useApp();
  const { operator } = useOperator();
  const t = useT('console');
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const [targets, setTargets] = useState<TransferTargets | null>(null);
  const [target, setTarget] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (open && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [open]);

  // The dialog opens once the targets are known, so that its first field, the list, has the focus.
  const start = async () => {
    setNote('');
    try {
      const next = transferTargets(await routingApi.presence(api), operator.id, team);
      setTargets(next);
      setTarget(firstTarget(next));
      setError(null);
    } catch (caught) {
      setTargets(null);
      setTarget('');
      setError(messageOf(caught));
    }
    setOpen(true);
  };

  const transfer = async (event: Event) => {
    event.preventDefault();
    const request = transferRequest(target, note);
    if (!request) return;
    setBusy(true);
    setError(null);
    try {
      await routingApi.transfer(api, sessionId, request);
      dialog.current?.close();
      onTransferred();
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  };

  const chosen = transferRequest(target, note);
  const chosenName =
    chosen && 'operatorId' in chosen
      ? (targets?.operators.find((item) => item.id === chosen.operatorId)?.name ?? chosen.operatorId)
      : null;
  const empty = targets !== null && !targets.teams.length && !targets.operators.length;

  return (
    <>
      <button
        id="transfer"
        type="button"
        class="ghost-button"
        aria-haspopup="dialog"
        onClick={() => void start()}
      >
        {t('transfer.open')}
      </button>
      {open ? (
        <dialog
          id="transfer-dialog"
          class="dialog"
          aria-labelledby="transfer-title"
          ref={dialog}
          onClose={() => setOpen(false)}
        >
          <form class="dialog-form" onSubmit={transfer}>
            <h2 id="transfer-title">{t('transfer.title')}</h2>
            {error ? (
              <p class="dialog-error" role="alert">
                {error}
              </p>
            ) : null}
            {empty ? <p id="transfer-empty">{t('transfer.noTargets')}</p> : null}
            <label for="transfer-target">{t('transfer.target')}</label>
            <select
              id="transfer-target"
              value={target}
              disabled={!targets || empty}
              onChange={(event) => setTarget(event.currentTarget.value)}
            >
              {targets?.teams.length ? (
                <optgroup label={t('transfer.teams')}>
                  {targets.teams.map((name) => (
                    <option key={name} value={targetValue({ team: name })}>
                      {t('transfer.teamOption', { team: name })}
                    </option>
                  ))}
                </optgroup>
              ) : null}
              {targets?.operators.length ? (
                <optgroup label={t('transfer.operators')}>
                  {targets.operators.map((item) => (
                    <option key={item.id} value={targetValue({ operatorId: item.id })}>
                      {item.name}
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </select>
            <label for="transfer-note">{t('transfer.note')}</label>
            <textarea
              id="transfer-note"
              rows={3}
              maxLength={5000}
              value={note}
              onInput={(event) => setNote(event.currentTarget.value)}
            />
            <p id="transfer-summary" aria-live="polite">
              {chosen && 'team' in chosen ? t('transfer.confirmTeam', { team: chosen.team }) : null}
              {chosenName ? t('transfer.confirmOperator', { name: chosenName }) : null}
            </p>
            <div class="dialog-actions">
              <button type="button" class="ghost-button" onClick={() => dialog.current?.close()}>
                {t('transfer.cancel')}
              </button>
              <button id="transfer-send" type="submit" class="primary-button" disabled={busy || !chosen}>
                {t('transfer.send')}
              </button>
            </div>
          </form>
        </dialog>
      ) : null}
    </>
  );
}
