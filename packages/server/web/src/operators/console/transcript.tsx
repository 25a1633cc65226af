import type { HistoryEntry, StoredTurnFact } from '@treeagent/core/client';
import type { RefObject } from 'preact';
import { handoffApi } from '../../api/handoff-api';
import { useApp } from '../../app/app-context';
import { handoffText } from '../../chat/handoff-text';
import { formatTimeWithSeconds } from '../../components/format';
import { TurnFactsView } from '../../debug/turn-facts-view';
import { useT } from '../../i18n/use-t';
import { speakerOf, transcriptRows } from './console-model';

/** A session's transcript: its rows, and after each turn its debug view (decisions, node reached, status). */
export function Transcript({
  history,
  facts,
  sessionId,
  listRef,
}: {
  history: HistoryEntry[];
  facts: StoredTurnFact[] | null;
  sessionId: string;
  listRef: RefObject<HTMLOListElement | null>;
}) {
  const t = useT('console');
  return (
    <ol id="transcript" class="transcript" ref={listRef} aria-label={t('transcript.label')}>
      {transcriptRows(history, facts).map(({ entry, index, fact }) => [
        <TranscriptEntry key={`${index}-${entry.at}`} entry={entry} sessionId={sessionId} />,
        fact ? <TurnDebugEntry key={`debug-${entry.turn}`} fact={fact} /> : null,
      ])}
    </ol>
  );
}

/** A turn's debug view in the transcript, folded: status and node reached, then the decisions. */
function TurnDebugEntry({ fact }: { fact: StoredTurnFact }) {
  const { tree } = useApp();
  const t = useT('console');
  const nodeLabel = (id: number) => tree?.nodeLabel(id) ?? t('transcript.node', { id });
  return (
    <li class="t-debug" data-turn={String(fact.turn)}>
      <details>
        <summary>
          {t('transcript.debugTurn', { turn: fact.turn })} ·{' '}
          <span class={`t-debug-status status-${fact.status}`}>{fact.status}</span>
          {fact.nodeId === null ? '' : ` · ${nodeLabel(fact.nodeId)}`}
          {fact.decisions.length ? ` · ${t('transcript.decisions', { count: fact.decisions.length })}` : ''}
        </summary>
        <TurnFactsView fact={fact} nodeLabel={nodeLabel} />
      </details>
    </li>
  );
}

/** One row of the transcript: who, when, the text, options and files. */
function TranscriptEntry({ entry, sessionId }: { entry: HistoryEntry; sessionId: string }) {
  const { tree } = useApp();
  const t = useT('console');
  if (entry.role === 'system') {
    return (
      <li class="t-entry t-entry--system">
        {entry.handoff ? handoffText(t, entry.handoff, 'staff') : entry.content}
      </li>
    );
  }
  const { who, kind } = speakerOf(entry, tree ? (id) => tree.nodeLabel(id) : null);
  return (
    <li class={`t-entry t-entry--${kind}`} data-turn={String(entry.turn)}>
      <span class="t-who">
        {who}{' '}
        <span class="muted">
          · {t('transcript.turn', { turn: entry.turn })} · {formatTimeWithSeconds(entry.at)}
        </span>
      </span>
      {entry.content ? <span class="t-text">{entry.content}</span> : null}
      {entry.selectedOption ? <span class="muted"> {t('transcript.option')}</span> : null}
      {entry.options?.length ? (
        <span class="t-options">{t('transcript.options', { options: entry.options.join(' · ') })}</span>
      ) : null}
      {entry.attachments?.length ? (
        <span class="t-files">
          {entry.attachments.map((file) => (
            <a key={file.id} href={handoffApi.fileUrl(sessionId, file.id)} target="_blank" rel="noreferrer">
              {file.name}
            </a>
          ))}
        </span>
      ) : null}
    </li>
  );
}
