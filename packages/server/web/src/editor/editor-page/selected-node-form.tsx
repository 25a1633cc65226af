import type { TreeDocument } from '@treeagent/core/client';
import type { EditorCheckResponse, EditorSuggestionsResponse } from '../../../../src/api-types';
import { useT } from '../../i18n/use-t';
import {
  addChild,
  addComponent,
  deleteSubtree,
  duplicate,
  instantiateComponent,
  makeInstanceExplicit,
  moveAmongSiblings,
  siblingPosition,
  updateNode,
} from '../document-model';
import { NodeForm } from '../node-form';
import { SuggestChunksPanel } from '../node-form/suggest-chunks-panel';
import { deleteQuestion } from './delete-question';
import { type Selection, withPrimaryAgent } from './editor-page-model';

/**
 * The form of the selected node, wired to the document's edits (`document-model.ts`): a change, a
 * child or component added (and selected), a clone, a move, a duplicate, a delete (always confirmed,
 * naming the nodes that go with it and the links that point into them), the primary agent.
 */
export function SelectedNodeForm({
  document,
  selection,
  check,
  suggestions,
  callbacks,
  readOnly,
  edit,
  onSelect,
}: {
  document: TreeDocument;
  selection: Selection & { node: NonNullable<Selection['node']> };
  check: EditorCheckResponse | null;
  suggestions: EditorSuggestionsResponse | null;
  /** The module's exported callback names. */
  callbacks: string[];
  readOnly: boolean;
  edit(change: (current: TreeDocument) => TreeDocument): void;
  onSelect(id: number | null): void;
}) {
  const { node, head, instance, documentNode } = selection;
  const t = useT('editor');
  const added = (result: { id: number; document: TreeDocument }, select = result.id) => {
    onSelect(select);
    edit(() => result.document);
  };
  return (
    <>
      <NodeForm
        key={node.id}
        document={document}
        node={node}
        callbacks={callbacks}
        problems={(check?.problems ?? []).filter((problem) => problem.nodeId === node.id)}
        lint={(check?.lint ?? []).filter((finding) => finding.nodeId === node.id)}
        suggestion={suggestions?.suggestions.find((item) => item.nodeId === node.id) ?? null}
        readOnly={readOnly}
        instance={instance}
        onMakeExplicit={(componentId) => edit((current) => makeInstanceExplicit(current, componentId))}
        head={head}
        onChangeHead={(patch) => {
          if (head) edit((current) => updateNode(current, head.id, patch));
        }}
        siblings={documentNode ? siblingPosition(document, node.id) : { index: 0, count: 1 }}
        onMove={(direction) => edit((current) => moveAmongSiblings(current, node.id, direction))}
        onChange={(patch) => edit((current) => updateNode(current, node.id, patch))}
        onAddChild={(type) => added(addChild(document, node.id, type))}
        onAddComponent={() => {
          const result = addComponent(document, node.id, 'component');
          added(result, result.id + 2);
        }}
        onInstantiate={(name) => added(instantiateComponent(document, node.id, name))}
        onDuplicate={() => added(duplicate(document, node.id))}
        onDelete={() => {
          if (!window.confirm(deleteQuestion(t, document, node.id))) return;
          onSelect(node.parent ?? null);
          edit((current) => deleteSubtree(current, node.id));
        }}
        onMakePrimary={() => edit((current) => withPrimaryAgent(current, node.id))}
      />
      {documentNode && node.type !== 'root' ? (
        <SuggestChunksPanel
          document={document}
          nodeId={node.id}
          valid={check?.valid === true}
          readOnly={readOnly || Boolean(instance)}
          edit={edit}
        />
      ) : null}
    </>
  );
}
