import { useState } from 'preact/hooks';
import { useT } from '../../i18n/use-t';
import type { NewNodeType } from '../document-model';
import { inputValue } from './node-form-model';

const NEW_TYPES: NewNodeType[] = ['emit', 'switch', 'empty', 'query', 'llm', 'guardrail', 'agent'];

/** What can be done to the tree around a node: add a child or a component, clone one, move, duplicate, delete. */
export function StructureSection(props: {
  /** The names of the document's components (each can be cloned here). */
  components: string[];
  /** Whether the node has a parent (the root cannot move, be duplicated or deleted). */
  hasParent: boolean;
  siblings: { index: number; count: number };
  onAddChild(type: NewNodeType): void;
  onAddComponent(): void;
  onInstantiate(name: string): void;
  onMove(direction: -1 | 1): void;
  onDuplicate(): void;
  onDelete(): void;
}) {
  const [newType, setNewType] = useState<NewNodeType>('emit');
  const { siblings } = props;
  const t = useT('editor');
  return (
    <section class="form-section node-actions">
      <h3>{t('structure.title')}</h3>
      <div class="action-row">
        <select
          id="new-child-type"
          aria-label={t('structure.newType')}
          value={newType}
          onChange={(event) => setNewType(inputValue(event) as NewNodeType)}
        >
          {NEW_TYPES.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
        <button type="button" id="add-child" class="button-small" onClick={() => props.onAddChild(newType)}>
          {t('structure.addChild')}
        </button>
        <button type="button" id="add-component" class="button-small" onClick={props.onAddComponent}>
          {t('structure.addComponent')}
        </button>
      </div>
      {props.components.length ? (
        <div class="action-row">
          {props.components.map((name) => (
            <button key={name} type="button" class="button-small" onClick={() => props.onInstantiate(name)}>
              {t('structure.clone', { name })}
            </button>
          ))}
        </div>
      ) : null}
      {props.hasParent && siblings.count > 1 ? (
        <div class="action-row">
          <span class="note" id="sibling-position">
            {t('structure.position', { index: siblings.index + 1, count: siblings.count })}
          </span>
          <button
            type="button"
            id="move-up"
            class="button-small"
            disabled={siblings.index <= 0}
            title={t('structure.moveUpTitle')}
            onClick={() => props.onMove(-1)}
          >
            {t('structure.moveUp')}
          </button>
          <button
            type="button"
            id="move-down"
            class="button-small"
            disabled={siblings.index >= siblings.count - 1}
            title={t('structure.moveDownTitle')}
            onClick={() => props.onMove(1)}
          >
            {t('structure.moveDown')}
          </button>
        </div>
      ) : null}
      {props.hasParent ? (
        <div class="action-row">
          <button type="button" id="duplicate-node" class="button-small" onClick={props.onDuplicate}>
            {t('structure.duplicate')}
          </button>
          <button type="button" id="delete-node" class="button-small is-danger" onClick={props.onDelete}>
            {t('structure.delete')}
          </button>
        </div>
      ) : null}
    </section>
  );
}
