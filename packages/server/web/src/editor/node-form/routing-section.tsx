import type { TreeDocumentNode } from '@treeagent/core/client';
import type { EditorThresholdSuggestion } from '../../../../src/api-types';
import { markup } from '../../i18n/markup';
import { useT } from '../../i18n/use-t';
import { DraftInput } from '../draft-field';
import { checked, numberOrUndefined, type Patch } from './node-form-model';

const FLAGS = [
  ['isBlocking', 'blocking'],
  ['isAnchor', 'anchor'],
  ['isMute', 'mute'],
] as const;

/** How a node is routed: its threshold (the root's default), the suggested one, and its flags. */
export function RoutingSection({
  node,
  suggestion,
  onChange,
}: {
  node: TreeDocumentNode;
  suggestion: EditorThresholdSuggestion | null;
  onChange(patch: Patch): void;
}) {
  const t = useT('editor');
  return (
    <section class="form-section">
      <h3>{t('routing.label')}</h3>
      {node.type === 'root' ? (
        <label class="field">
          <span>{t('form.defaultThreshold')}</span>
          <DraftInput
            id="node-default-threshold"
            type="number"
            step="0.01"
            min="-1"
            max="1"
            value={
              node.defaultSimilarityThreshold === undefined ? '' : String(node.defaultSimilarityThreshold)
            }
            onCommit={(typed) => onChange({ defaultSimilarityThreshold: numberOrUndefined(typed) })}
          />
        </label>
      ) : (
        <label class="field">
          <span>{t('form.threshold')}</span>
          <DraftInput
            id="node-threshold"
            type="number"
            step="0.01"
            min="-1"
            max="1"
            value={node.similarityThreshold === undefined ? '' : String(node.similarityThreshold)}
            onCommit={(typed) => onChange({ similarityThreshold: numberOrUndefined(typed) })}
          />
        </label>
      )}
      {suggestion && suggestion.suggested !== null ? (
        <p class="suggestion">
          {markup(
            t('form.suggestion', {
              suggested: suggestion.suggested,
              current: suggestion.current,
              source: suggestion.currentSource,
              kept: Math.round(suggestion.descendKept * 100),
              descend: suggestion.shouldDescend,
              stopped: Math.round(suggestion.stopRecall * 100),
              stop: suggestion.shouldStop,
            }),
          )}{' '}
          <button
            type="button"
            id="apply-suggestion"
            class="button-small"
            onClick={() => onChange({ similarityThreshold: suggestion.suggested })}
          >
            {t('routing.apply')}
          </button>
        </p>
      ) : null}
      <div class="flags">
        {FLAGS.map(([flag, label]) => (
          <label key={flag} class="check">
            <input
              id={`node-${flag}`}
              type="checkbox"
              checked={node[flag] === true}
              onChange={(event) => onChange({ [flag]: checked(event) || undefined })}
            />
            {t(`flags.${label}.label`, { ns: 'tree' })}
          </label>
        ))}
      </div>
    </section>
  );
}
