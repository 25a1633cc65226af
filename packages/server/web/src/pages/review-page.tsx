import type { ConversationSummary, StoredTurnFact, TurnFactStatus } from '@treeagent/core/client';
import { useEffect, useState } from 'preact/hooks';
import type { TranscriptResponse } from '../../../src/api-types';
import { defaultRange, FilterBar } from '../analytics/filter-bar';
import { Transcript } from '../analytics/review-transcript';
import { analyticsApi, type ReviewQuery } from '../api/analytics-api';
import { messageOf } from '../api/api-client';
import { ApiError } from '../api/api-error';
import { useApp } from '../app/app-context';
import { TopBar } from '../app/top-bar';
import { formatDateTime } from '../components/format';
import { ErrorNotice } from '../components/notice';
import { useT } from '../i18n/use-t';
import { OperatorGate } from '../operators/operator-gate';

const STATUSES: TurnFactStatus[] = ['answered', 'no-match', 'fallback', 'error', 'handed-off'];

/**
 * Conversation review (docs/analytics.md): search conversations by text, node, status, date and
 * version; read a transcript with each turn's facts (status, node, decisions with similarity and
 * margin); label a turn with the node it should have reached (labels feed `treeagent eval`/`fit`
 * through `treeagent report --labels`). Operators only.
 */
export function ReviewPage() {
  const t = useT('common');
  return (
    <OperatorGate title={t('gate.review')}>
      <TopBar />
      <main id="review-page" class="page page-review">
        <ReviewView />
      </main>
    </OperatorGate>
  );
}

function ReviewView() {
  const { api, tree, nodeLabel, setReady } = useApp();
  const t = useT('review');
  const [query, setQuery] = useState<ReviewQuery>(defaultRange);
  const [draft, setDraft] = useState<ReviewQuery>(query);
  const [list, setList] = useState<ConversationSummary[] | null>(null);
  const [open, setOpen] = useState<TranscriptResponse | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const fail = (caught: unknown) =>
    setError(caught instanceof ApiError ? caught : new ApiError(0, 'ERROR', String(caught)));
  useEffect(() => {
    setReady(false);
    analyticsApi
      .conversations(api, query)
      .then(
        (response) => {
          setList(response.conversations);
          setError(null);
        },
        (caught: unknown) => {
          // The list shown was the previous search's: not under an error about this one.
          setList(null);
          setOpen(null);
          fail(caught);
        },
      )
      .finally(() => setReady(true));
  }, [api, query, setReady]);
  const named = tree ? [...tree.nodes.values()].filter((node) => node.name) : [];
  const show = (sessionId: string) =>
    analyticsApi.transcript(api, sessionId).then((transcript) => {
      setOpen(transcript);
      setError(null);
      // On a phone the transcript is below the list: bring it into view, as the console opens a
      // conversation alone (after the render that shows it).
      requestAnimationFrame(() => {
        const shown = document.getElementById('transcript');
        if (shown && shown.getBoundingClientRect().top > window.innerHeight)
          shown.scrollIntoView({ block: 'start' });
      });
    }, fail);
  const label = async (fact: StoredTurnFact, value: string) => {
    try {
      await analyticsApi.label(api, fact, value || null);
      await show(fact.sessionId);
    } catch (caught) {
      fail(caught);
    }
  };
  return (
    <div class="review">
      <FilterBar
        id="review-filter"
        draft={draft}
        onDraft={setDraft}
        onSubmit={() => setQuery({ ...draft })}
        submitLabel={t('search')}
        before={
          <>
            <label>
              {t('text')}{' '}
              <input
                type="search"
                name="text"
                value={draft.text ?? ''}
                onInput={(e) => setDraft({ ...draft, text: e.currentTarget.value })}
              />
            </label>
            <label>
              {t('status')}
              <select
                name="status"
                value={draft.status ?? ''}
                onChange={(e) => setDraft({ ...draft, status: e.currentTarget.value as TurnFactStatus })}
              >
                <option value="">{t('any')}</option>
                {STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {t(`statuses.${status}`)}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t('node')}
              <select
                name="node"
                value={draft.nodeId ?? ''}
                onChange={(e) =>
                  setDraft({ ...draft, nodeId: e.currentTarget.value ? Number(e.currentTarget.value) : null })
                }
              >
                <option value="">{t('any')}</option>
                {named.map((node) => (
                  <option key={node.id} value={node.id}>
                    {nodeLabel(node.id)}
                  </option>
                ))}
              </select>
            </label>
          </>
        }
      />
      {error ? <ErrorNotice code={error.code} status={error.status} message={messageOf(error)} /> : null}
      <div class="review-columns">
        <ul id="conversation-list" class="conversation-list" aria-label={t('conversations')}>
          {list?.length === 0 ? <li class="muted">{t('noMatches')}</li> : null}
          {list?.map((conversation) => (
            <li key={conversation.sessionId}>
              <button
                type="button"
                class={`conversation-item${open?.sessionId === conversation.sessionId ? ' is-open' : ''}`}
                onClick={() => void show(conversation.sessionId)}
              >
                <span class="conversation-first">{conversation.firstMessage || t('noText')}</span>
                <span class="muted">
                  {t('summary', {
                    count: conversation.turns,
                    status: t(`statuses.${conversation.lastStatus}`),
                    at: formatDateTime(conversation.lastAt),
                  })}
                </span>
              </button>
            </li>
          ))}
        </ul>
        {open ? (
          <Transcript transcript={open} named={named} nodeLabel={nodeLabel} onLabel={label} />
        ) : (
          <p class="muted">{t('choose')}</p>
        )}
      </div>
    </div>
  );
}
