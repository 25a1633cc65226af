import { useState } from 'preact/hooks';
import type { HandoffDetail } from '../../../../src/api-types';
import { handoffApi } from '../../api/handoff-api';
import { useApp } from '../../app/app-context';
import { JsonBlock } from '../../components/json-block';

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
  return (
    <aside class="console-side" aria-label="Session state and notes">
      <h2>Session</h2>
      {detail.session ? (
        <dl class="session-facts">
          <dt>Turns</dt>
          <dd id="session-turns">{detail.session.turn}</dd>
          <dt>Last node</dt>
          <dd>
            {detail.session.lastNodeId === null
              ? '—'
              : (tree?.nodeLabel(detail.session.lastNodeId) ?? detail.session.lastNodeId)}
          </dd>
          <dt>Fail counter</dt>
          <dd>{detail.session.failCounter}</dd>
          <dt>Files</dt>
          <dd>{detail.session.files.length}</dd>
        </dl>
      ) : null}
      {detail.session ? <JsonBlock value={detail.session.state} label="Session state" /> : null}
      <h2>Internal notes</h2>
      <ul id="notes" class="notes">
        {detail.notes.map((item, index) => (
          <li key={`${item.at}-${index}`}>
            <span class="note-meta">
              {item.operator.name} · {new Date(item.at).toLocaleTimeString()}
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
          placeholder="A note for colleagues (never shown to the user)"
          value={note}
          onInput={(event) => setNote((event.currentTarget as HTMLTextAreaElement).value)}
        />
        <button id="note-add" type="submit" class="ghost-button">
          Add note
        </button>
      </form>
    </aside>
  );
}
