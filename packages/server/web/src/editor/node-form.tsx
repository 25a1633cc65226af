import { CALLBACKS_BY_TYPE, type TreeDocument, type TreeDocumentNode } from '@treeagent/core/client';
import type { EditorLintFinding, EditorProblem, EditorThresholdSuggestion } from '../../../src/api-types';
import { markup } from '../i18n/markup';
import { useT } from '../i18n/use-t';
import { AddCallbackButtons } from './callbacks/add-callback-buttons';
import type { NewNodeType } from './document-model';
import { CallbacksSection } from './node-form/callbacks-section';
import { ChunksSection } from './node-form/chunks-section';
import { ComponentSection } from './node-form/component-section';
import { LinksSection } from './node-form/links-section';
import { type EmitValue, MessageSection } from './node-form/message-section';
import { NodeFormHead } from './node-form/node-form-head';
import {
  chunksOf,
  EMIT_SECTION_PROPERTIES,
  findingsOf,
  type Patch,
  sectionsOf,
} from './node-form/node-form-model';
import { RoutingSection } from './node-form/routing-section';
import { NODE_PROPERTIES, ObjectFields, SchemaSection } from './node-form/schema-section';
import { StructureSection } from './node-form/structure-section';
import { WarningSection } from './node-form/warning-section';

export interface NodeFormProps {
  document: TreeDocument;
  node: TreeDocumentNode;
  /** The module's exported callback names. */
  callbacks: string[];
  problems: EditorProblem[];
  lint: EditorLintFinding[];
  suggestion: EditorThresholdSuggestion | null;
  readOnly: boolean;
  onChange(patch: Patch): void;
  onAddChild(type: NewNodeType): void;
  onAddComponent(): void;
  onInstantiate(name: string): void;
  onDuplicate(): void;
  onDelete(): void;
  onMakePrimary(): void;
  /** Set for a node of a component used by name: shown read-only, with the way to edit it. */
  instance: { name: string; componentId: number } | null;
  /** Writes a component used by name out in the tree (same ids), so that its nodes can be edited. */
  onMakeExplicit(componentId: number): void;
  /** For a component: its head node (where `init` lives), edited with `onChangeHead`. */
  head: TreeDocumentNode | null;
  onChangeHead(patch: Patch): void;
  /** The node's place among its siblings (their order is the tree's), and moving it. */
  siblings: { index: number; count: number };
  onMove(direction: -1 | 1): void;
}

/**
 * The inspector of the selected node: every property the JSON holds, edited in place, one section
 * component per group of properties (`node-form/`); which sections a type has is `sectionsOf`.
 */
export function NodeForm(props: NodeFormProps) {
  const { node, onChange } = props;
  const readOnly = props.readOnly || props.instance !== null;
  const type = node.type;
  const sections = sectionsOf(type);
  const callbacks = (node.callbacks ?? {}) as Record<string, string>;
  const supported = CALLBACKS_BY_TYPE[type] ?? [];
  const t = useT('editor');

  return (
    <form id="node-form" class="node-form" onSubmit={(event) => event.preventDefault()}>
      {props.instance ? (
        <p id="instance-note" class="note">
          {markup(t('form.instance', { name: props.instance.name, id: props.instance.componentId }))}{' '}
          {props.readOnly ? null : (
            <button
              type="button"
              id="make-explicit"
              class="button-small"
              onClick={() => props.onMakeExplicit(props.instance!.componentId)}
            >
              {t('component.makeEditable')}
            </button>
          )}
        </p>
      ) : null}
      <fieldset disabled={readOnly}>
        <NodeFormHead
          node={node}
          findings={findingsOf(props.problems, props.lint)}
          onChange={onChange}
          onMakePrimary={props.onMakePrimary}
        />
        {sections.routing ? (
          <RoutingSection node={node} suggestion={props.suggestion} onChange={onChange} />
        ) : null}
        {sections.chunks ? (
          <ChunksSection
            chunks={chunksOf(node)}
            isQuery={type === 'query'}
            onChunks={(chunks) => onChange({ chunks })}
          />
        ) : null}
        {type === 'emit' ? (
          callbacks.emit ? (
            <p class="note">{markup(t('form.fromCallback', { callback: callbacks.emit }))}</p>
          ) : (
            <MessageSection emit={(node.emit ?? null) as EmitValue} onEmit={(emit) => onChange({ emit })} />
          )
        ) : null}
        {type === 'emit' && !callbacks.emit ? (
          <ObjectFields
            path={['emit']}
            schema={NODE_PROPERTIES.emit!}
            value={node.emit as Record<string, unknown> | undefined}
            except={EMIT_SECTION_PROPERTIES}
            problems={props.problems}
            onChange={(emit) => onChange({ emit })}
          />
        ) : null}
        {type === 'guardrail' ? (
          <WarningSection warning={node.warning} problems={props.problems} onChange={onChange} />
        ) : null}
        <SchemaSection node={node} problems={props.problems} onChange={onChange} />
        {sections.links ? (
          <LinksSection
            links={(node.links ?? {}) as Record<string, number>}
            nodes={props.document.nodes}
            onLinks={(links) => onChange({ links })}
          />
        ) : null}
        {type === 'component' ? (
          <ComponentSection
            node={node}
            head={props.head}
            callbacks={props.callbacks}
            hasModule={Boolean(props.document.module)}
            readOnly={readOnly}
            canMakeExplicit={!props.readOnly && typeof node.use === 'string'}
            onMakeExplicit={() => props.onMakeExplicit(node.id)}
            onChangeHead={props.onChangeHead}
          />
        ) : null}
        {supported.length ? (
          <CallbacksSection
            supported={supported}
            callbacks={callbacks}
            exported={props.callbacks}
            hasModule={Boolean(props.document.module)}
            onCallbacks={(next) => onChange({ callbacks: next })}
          />
        ) : null}
        <AddCallbackButtons
          node={node}
          supported={supported}
          callbacks={callbacks}
          hasModule={Boolean(props.document.module)}
          onCallbacks={(next) => onChange({ callbacks: next })}
        />
        <StructureSection
          components={Object.keys(props.document.components ?? {})}
          hasParent={node.parent != null}
          siblings={props.siblings}
          onAddChild={props.onAddChild}
          onAddComponent={props.onAddComponent}
          onInstantiate={props.onInstantiate}
          onMove={props.onMove}
          onDuplicate={props.onDuplicate}
          onDelete={props.onDelete}
        />
      </fieldset>
    </form>
  );
}
