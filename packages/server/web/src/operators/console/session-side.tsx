import { useState } from 'preact/hooks';
import type { HandoffDetail } from '../../../../src/api-types';
import { handoffApi } from '../../api/handoff-api';
import { useApp } from '../../app/app-context';
import { formatTimeWithSeconds } from '../../components/format';
import { JsonBlock } from '../../components/json-block';
import { useT } from '../../i18n/use-t';

/** Beside the transcript: the session's facts and state, and the operators' internal notes with a form to add one. */
export function SessionSide({
  sessionId,
  detail,
  run,
  reload,
}: {
  sessionId: string;
  detail: HandoffDetail;
  run: (action: () => Promise<unknown>) => Promise<boolean>;
  reload: () => Promise<void>;
}) {
  const { api, tree } = useApp();
  const [note, setNote] = useState('');
  const t = useT('console');
  return (
    <aside class="console-side" aria-label={t('side.label')}>
      <h2>{t('side.session')}</h2>
      {detail.session ? (
        <dl class="session-facts">
          <dt>{t('side.turns')}</dt>
          <dd id="session-turns">{detail.session.turn}</dd>
          <dt>{t('side.lastNode')}</dt>
          <dd>
            {detail.session.lastNodeId === null
              ? '—'
              : (tree?.nodeLabel(detail.session.lastNodeId) ?? detail.session.lastNodeId)}
          </dd>
          <dt>{t('side.failCounter')}</dt>
          <dd>{detail.session.failCounter}</dd>
          <dt>{t('side.files')}</dt>
          <dd>{detail.session.files.length}</dd>
        </dl>
      ) : null}
      {detail.session ? <JsonBlock value={detail.session.state} label={t('side.state')} /> : null}
      <h2>{t('side.notes')}</h2>
      <ul id="notes" class="notes">
        {detail.notes.map((item, index) => (
          <li key={`${item.at}-${index}`}>
            <span class="note-meta">
              {item.operator.name} · {formatTimeWithSeconds(item.at)}
            </span>
            <span class="note-text">{item.text}</span>
          </li>
        ))}
      </ul>
      <form
        class="note-form"
        onSubmit={async (event) => {
          event.preventDefault();
          if (!note.trim()) return;
          if (await run(() => handoffApi.note(api, sessionId, note.trim()))) {
            setNote('');
            await reload();
          }
        }}
      >
        <textarea
          id="note-input"
          rows={2}
          placeholder={t('side.notePlaceholder')}
          value={note}
          onInput={(event) => setNote((event.currentTarget as HTMLTextAreaElement).value)}
        />
        <button id="note-add" type="submit" class="ghost-button">
          {t('side.addNote')}
        </button>
      </form>
    </aside>
  );
}
