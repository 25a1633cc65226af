import type { TreeDocumentNode } from '@treeagent/core/client';
import { useT } from '../../i18n/use-t';
import { DraftArea, DraftInput } from '../draft-field';
import { CHANGEABLE_TYPES, inputValue, type NodeFinding, type Patch, text } from './node-form-model';

/** The top of the node form: type and id (and the primary star of an agent), findings, name, description, type. */
export function NodeFormHead({
  node,
  findings,
  onChange,
  onMakePrimary,
}: {
  node: TreeDocumentNode;
  findings: readonly NodeFinding[];
  onChange(patch: Patch): void;
  onMakePrimary(): void;
}) {
  const type = node.type;
  const t = useT('editor');
  return (
    <>
      <header class="node-form-head">
        <span class={`type-chip type-${type}`}>{type}</span>
        <span class="node-form-id">#{node.id}</span>
        {type === 'agent' ? (
          <button
            type="button"
            id="toggle-primary"
            class={`button-small${node.isPrimary ? ' is-on' : ''}`}
            title={t('head.primaryTitle')}
            onClick={onMakePrimary}
          >
            {node.isPrimary ? t('head.primary') : t('head.makePrimary')}
          </button>
        ) : null}
      </header>
      {findings.length ? (
        <ul class="node-findings">
          {findings.map((finding, index) => (
            <li key={index} class={`finding is-${finding.kind}`}>
              <strong>{finding.message}</strong>{' '}
              <span class="finding-fix">{t('fix', { fix: finding.fix })}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <label class="field">
        <span>{t('head.name')}</span>
        <DraftInput
          id="node-name"
          value={text(node.name)}
          onCommit={(typed) => onChange({ name: typed || undefined })}
        />
      </label>
      <label class="field">
        <span>{t('head.description')}</span>
        <DraftArea
          rows={2}
          value={text(node.description)}
          onCommit={(typed) => onChange({ description: typed || undefined })}
        />
      </label>
      {CHANGEABLE_TYPES.includes(type) ? (
        <label class="field">
          <span>{t('head.type')}</span>
          <select id="node-type" value={type} onChange={(event) => onChange({ type: inputValue(event) })}>
            {CHANGEABLE_TYPES.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </label>
      ) : null}
    </>
  );
}
