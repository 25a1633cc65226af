import type { TreeDocument } from '@treeagent/core/client';
import { useState } from 'preact/hooks';
import type { EditorChunkSuggestionsResponse } from '../../../../src/api-types';
import { messageOf } from '../../api/api-client';
import { editorApi } from '../../api/editor-api';
import { useApp } from '../../app/app-context';
import { formatPercent } from '../../components/format';
import { useT } from '../../i18n/use-t';
import { nodeOf, updateNode } from '../document-model';

/**
 * "Suggest chunks" for the selected node (docs/editor.md): asks the server for new chunks (the
 * model's paraphrases, or unmatched messages without a model), shows them with checkboxes and the
 * routing eval's change (accuracy, the node's recall, confusions introduced), and "Add selected"
 * adds the checked ones to the node's chunks — one undo step.
 */
export function SuggestChunksPanel(props: {
  document: TreeDocument;
  nodeId: number;
  /** Whether the draft is valid (the server suggests for a tree that builds). */
  valid: boolean;
  readOnly: boolean;
  edit(change: (current: TreeDocument) => TreeDocument): void;
}) {
  const t = useT('editor');
  const { api } = useApp();
  const [result, setResult] = useState<EditorChunkSuggestionsResponse | null>(null);
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ask = () => {
    setBusy(true);
    setError(null);
    editorApi
      .suggestChunks(api, props.document, props.nodeId)
      .then((answer) => {
        setResult(answer);
        setChecked(new Set(answer.suggestions.map((item) => item.text)));
      })
      .catch((failure: unknown) => setError(messageOf(failure)))
      .finally(() => setBusy(false));
  };
  const add = () => {
    const texts = result?.suggestions.map((item) => item.text).filter((text) => checked.has(text)) ?? [];
    if (!texts.length) return;
    props.edit((current) => {
      const node = nodeOf(current, props.nodeId);
      const chunks = Array.isArray(node?.chunks) ? node.chunks : [];
      return updateNode(current, props.nodeId, { chunks: [...chunks, ...texts] });
    });
    setResult(null);
  };
  const evaluation = result?.evaluation;
  return (
    <section class="form-section suggest-chunks" id="suggest-chunks">
      <h3>{t('suggestChunks.title')}</h3>
      <button
        type="button"
        id="suggest-chunks-button"
        class="button-small"
        disabled={busy || !props.valid || props.readOnly}
        title={props.valid ? undefined : t('suggestChunks.needsValid')}
        onClick={ask}
      >
        {busy ? t('suggestChunks.asking') : t('suggestChunks.ask')}
      </button>
      {error ? <p class="finding is-error">{error}</p> : null}
      {result ? (
        <>
          <p class="note" id="suggest-chunks-source">
            {result.source === 'model' ? t('suggestChunks.fromModel') : t('suggestChunks.fromUnmatched')}
          </p>
          {result.suggestions.length ? (
            <ul class="suggested-chunks">
              {result.suggestions.map((item) => (
                <li key={item.text}>
                  <label class="check">
                    <input
                      type="checkbox"
                      checked={checked.has(item.text)}
                      onChange={(event) => {
                        const next = new Set(checked);
                        if ((event.target as HTMLInputElement).checked) next.add(item.text);
                        else next.delete(item.text);
                        setChecked(next);
                      }}
                    />{' '}
                    {item.text}
                    {item.count !== null ? ` (×${item.count})` : ''}
                  </label>
                </li>
              ))}
            </ul>
          ) : (
            <p class="note">{t('suggestChunks.none')}</p>
          )}
          {evaluation ? (
            <p class="note" id="suggest-chunks-eval">
              {t('suggestChunks.accuracy', {
                before: formatPercent(evaluation.accuracyBefore),
                after: formatPercent(evaluation.accuracyAfter),
                count: evaluation.utterances,
              })}
              {evaluation.recallBefore !== null && evaluation.recallAfter !== null
                ? ` ${t('suggestChunks.recall', {
                    before: formatPercent(evaluation.recallBefore),
                    after: formatPercent(evaluation.recallAfter),
                  })}`
                : ''}
              {evaluation.confusionsIntroduced.length
                ? ` ${t('suggestChunks.confusions', {
                    list: evaluation.confusionsIntroduced
                      .map((item) => `${item.expected} → ${item.predicted} (+${item.count})`)
                      .join(', '),
                  })}`
                : ` ${t('suggestChunks.noConfusions')}`}
            </p>
          ) : (
            <p class="note">{t('suggestChunks.noUtterances')}</p>
          )}
          {result.suggestions.length ? (
            <button
              type="button"
              id="add-suggested-chunks"
              class="button-small"
              disabled={!checked.size || props.readOnly}
              onClick={add}
            >
              {t('suggestChunks.add', { count: checked.size })}
            </button>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
