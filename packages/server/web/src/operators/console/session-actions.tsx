import { useState } from 'preact/hooks';
import type { HandoffDetail } from '../../../../src/api-types';
import { handoffApi } from '../../api/handoff-api';
import { useApp } from '../../app/app-context';
import { useT } from '../../i18n/use-t';
import { TransferButton } from './transfer-button';

/**
 * What the operator can do with an open session: claim it, take it over (admins), release it, hand
 * it back to the assistant (at a node, or its default), close it, transfer it (`transfer-button.tsx`).
 */
export function SessionActions({
  sessionId,
  state,
  mine,
  admin,
  act,
  onLeave,
}: {
  sessionId: string;
  state: NonNullable<HandoffDetail['state']>;
  mine: boolean;
  admin: boolean;
  /** Runs an action, then reloads the session. */
  act: (action: () => Promise<unknown>) => Promise<void>;
  /** The session is no longer this operator's to show (transferred). */
  onLeave: () => void;
}) {
  const { api, tree } = useApp();
  const [target, setTarget] = useState('');
  const t = useT('console');
  const holder = state.operator ?? null;
  const nodes = tree ? tree.tree.nodes.filter((node) => node.type !== 'root') : [];
  return (
    <div class="session-actions">
      {!holder ? (
        <button
          id="claim"
          type="button"
          class="primary-button"
          onClick={() => void act(() => handoffApi.claim(api, sessionId))}
        >
          {t('actions.claim')}
        </button>
      ) : null}
      {holder && !mine && admin ? (
        <button
          id="take-over"
          type="button"
          class="ghost-button"
          onClick={() => void act(() => handoffApi.claim(api, sessionId, true))}
        >
          {t('actions.takeOver')}
        </button>
      ) : null}
      {mine ? (
        <button
          id="release"
          type="button"
          class="ghost-button"
          onClick={() => void act(() => handoffApi.release(api, sessionId))}
        >
          {t('actions.release')}
        </button>
      ) : null}
      {mine || admin ? (
        <>
          <label class="hand-back">
            <span class="sr-only">{t('actions.handBackTo')}</span>
            <select
              id="hand-back-target"
              value={target}
              onChange={(event) => setTarget((event.currentTarget as HTMLSelectElement).value)}
            >
              <option value="">{t('actions.assistantDefault')}</option>
              {nodes.map((node) => (
                <option key={node.id} value={String(node.id)}>
                  {'  '.repeat(Math.max(0, node.depth - 1))}
                  {tree!.nodeLabel(node.id)} ({node.type})
                </option>
              ))}
            </select>
          </label>
          <button
            id="hand-back"
            type="button"
            class="ghost-button"
            onClick={() =>
              void act(() =>
                handoffApi.handBack(api, sessionId, target ? { nodeTarget: Number(target) } : {}),
              )
            }
          >
            {t('actions.handBack')}
          </button>
          <button
            id="close-handoff"
            type="button"
            class="ghost-button"
            onClick={() => void act(() => handoffApi.close(api, sessionId, !mine && admin))}
          >
            {t('actions.close')}
          </button>
          <TransferButton sessionId={sessionId} team={state.queue} onTransferred={onLeave} />
        </>
      ) : null}
    </div>
  );
}
