import type { TreeDocumentNode } from '@treeagent/core/client';
import { markup } from '../../i18n/markup';
import { useT } from '../../i18n/use-t';
import { DraftInput } from '../draft-field';
import { callbackChoices, inputValue, type Patch, text, withEntry } from './node-form-model';

/**
 * A component's own settings: the component it uses by name (with the way to write it out here), and
 * its head — the head's name and its `init` callback, which initialises the component's `self`
 * (docs/concepts.md §8).
 */
export function ComponentSection(props: {
  node: TreeDocumentNode;
  head: TreeDocumentNode | null;
  callbacks: string[];
  hasModule: boolean;
  readOnly: boolean;
  canMakeExplicit: boolean;
  onMakeExplicit(): void;
  onChangeHead(patch: Patch): void;
}) {
  const { node, head } = props;
  const t = useT('editor');
  const headCallbacks = (head?.callbacks ?? {}) as Record<string, string>;
  const init = headCallbacks.init ?? '';
  const headEditable = !props.readOnly && head !== null && typeof node.use !== 'string';
  return (
    <section class="form-section" id="component-section">
      <h3>{t('component.title')}</h3>
      {typeof node.use === 'string' ? (
        <p class="note">
          {markup(t('component.uses', { name: node.use, base: String(node.idBase) }))}{' '}
          {props.canMakeExplicit ? (
            <button type="button" id="make-explicit" class="button-small" onClick={props.onMakeExplicit}>
              {t('component.makeEditable')}
            </button>
          ) : null}
        </p>
      ) : null}
      {head ? (
        <>
          <label class="field">
            <span>{t('component.headName', { id: head.id })}</span>
            <DraftInput
              id="head-name"
              disabled={!headEditable}
              value={text(head.name)}
              onCommit={(typed) => props.onChangeHead({ name: typed || undefined })}
            />
          </label>
          <label class="field field-inline">
            <span title={t('component.headInitTitle')}>{t('component.headInit')}</span>
            <select
              id="head-init"
              disabled={!headEditable}
              value={init}
              onChange={(event) =>
                props.onChangeHead({ callbacks: withEntry(headCallbacks, 'init', inputValue(event)) })
              }
            >
              <option value="">{t('none')}</option>
              {callbackChoices(props.callbacks, init).map((name) => (
                <option key={name} value={name}>
                  {name}
                  {props.callbacks.includes(name) ? '' : ` ${t('notExported')}`}
                </option>
              ))}
            </select>
          </label>
          {!props.hasModule ? <p class="note">{t('component.noModule')}</p> : null}
        </>
      ) : (
        <p class="note">{t('component.noHead')}</p>
      )}
    </section>
  );
}
