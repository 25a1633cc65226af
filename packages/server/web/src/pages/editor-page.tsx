import type { TreeDocument } from '@treeagent/core/client';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import type { EditorRouteResponse, EditorSuggestionsResponse } from '../../../src/api-types';
import { useApp } from '../app/app-context';
import { TopBar } from '../app/top-bar';
import {
  addChild,
  addComponent,
  deleteSubtree,
  duplicate,
  effectiveGraph,
  instantiateComponent,
  makeInstanceExplicit,
  moveAmongSiblings,
  nodeOf,
  reparent,
  reparentProblem,
  siblingPosition,
  subtreeIds,
  updateNode,
} from '../editor/document-model';
import { NodeForm } from '../editor/node-form';
import { RoutingPanel } from '../editor/routing-panel';
import { type NodeFindings, TreeGraph } from '../editor/tree-graph';
import { useEditor } from '../editor/use-editor';
import '../editor/editor.css';

/**
 * The tree editor (docs/editor.md): the draft as a graph, the selected node's inspector, routing
 * while editing, problems and lint on the nodes, undo/redo, save with conflict detection.
 */
export function EditorPage() {
  const { setReady } = useApp();
  const editor = useEditor();
  const [selected, setSelected] = useState<number | null>(null);
  const [route, setRoute] = useState<EditorRouteResponse | null>(null);
  const [suggestions, setSuggestions] = useState<EditorSuggestionsResponse | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { document, check } = editor;
  const readOnly = editor.file ? !editor.file.editable : true;

  useEffect(() => {
    if (editor.status !== 'loading' && (editor.status === 'failed' || check)) setReady(true);
    return () => setReady(false);
  }, [editor.status, check, setReady]);

  const edit = useCallback(
    (change: (current: TreeDocument) => TreeDocument) => {
      if (readOnly) return;
      setNotice(null);
      editor.edit(change);
    },
    [editor, readOnly],
  );

  useEffect(() => {
    const keys = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey;
      if (!mod) return;
      const inField = (event.target as Element | null)?.closest('input, textarea, select');
      if (event.key.toLowerCase() === 's') {
        event.preventDefault();
        void editor.save();
      } else if (!inField && event.key.toLowerCase() === 'z') {
        event.preventDefault();
        if (event.shiftKey) editor.redo();
        else editor.undo();
      } else if (!inField && event.key.toLowerCase() === 'y') {
        event.preventDefault();
        editor.redo();
      }
    };
    window.addEventListener('keydown', keys);
    return () => window.removeEventListener('keydown', keys);
  }, [editor]);

  const graph = useMemo(() => (document ? effectiveGraph(document) : null), [document]);
  const findings = useMemo(() => {
    const map = new Map<number, NodeFindings>();
    const add = (id: number | undefined, kind: keyof NodeFindings) => {
      if (id === undefined) return;
      const current = map.get(id) ?? { errors: 0, warnings: 0 };
      current[kind]++;
      map.set(id, current);
    };
    for (const problem of check?.problems ?? []) add(problem.nodeId, 'errors');
    for (const finding of check?.lint ?? []) add(finding.nodeId, 'warnings');
    return map;
  }, [check]);
  const nameOf = useCallback(
    (id: number) => {
      const node = document ? nodeOf(document, id) : undefined;
      const effective = check?.tree?.nodes.find((item) => item.id === id);
      const name = (typeof node?.name === 'string' ? node.name : null) ?? effective?.name ?? null;
      return name ? `${name} #${id}` : `#${id}`;
    },
    [document, check],
  );
  const path = useMemo(() => {
    if (!route) return [];
    const ids: number[] = [];
    for (const decision of route.route.decisions) {
      if (!ids.includes(decision.nodeId)) ids.push(decision.nodeId);
      if (!ids.includes(decision.nextNodeId)) ids.push(decision.nextNodeId);
    }
    return ids;
  }, [route]);
  const heat = useMemo(
    () => (route ? new Map(route.heat.map((item) => [item.nodeId, item.similarity])) : null),
    [route],
  );

  if (editor.status === 'loading')
    return (
      <>
        <TopBar />
        <main class="page page-editor">
          <p class="note">Loading the tree…</p>
        </main>
      </>
    );
  if (editor.status === 'failed' || !document || !graph || !editor.file)
    return (
      <>
        <TopBar />
        <main class="page page-editor">
          <p id="editor-error" class="finding is-error">
            {editor.loadError}
          </p>
        </main>
      </>
    );

  // The selected node: of the document, or of a component used by name (shown read-only).
  const documentNode = selected !== null ? nodeOf(document, selected) : undefined;
  const graphNode = selected !== null ? graph.nodes.find((item) => item.id === selected) : undefined;
  const graphGroup = selected !== null ? graph.groups.get(selected) : undefined;
  const node = documentNode ?? graphNode?.node ?? graphGroup?.node;
  const instance = documentNode ? null : (graphNode?.instance ?? graphGroup?.instance ?? null);
  const head = node?.type === 'component' ? (graphGroup?.head ?? null) : null;
  const problems = check?.problems ?? [];
  const saveBlocked = !check?.valid || editor.checking;
  const select = (id: number) => setSelected(id);

  return (
    <>
      <TopBar>
        <span
          id="editor-status"
          class={`editor-status${problems.length ? ' is-invalid' : editor.dirty ? ' is-dirty' : ''}`}
        >
          {editor.checking
            ? 'Checking…'
            : problems.length
              ? `${problems.length} problem${problems.length === 1 ? '' : 's'}: cannot save`
              : editor.dirty
                ? 'Unsaved changes'
                : 'Saved'}
        </span>
        <button
          type="button"
          id="undo"
          class="button-small"
          disabled={!editor.canUndo}
          onClick={editor.undo}
          title="Undo (Ctrl+Z)"
        >
          Undo
        </button>
        <button
          type="button"
          id="redo"
          class="button-small"
          disabled={!editor.canRedo}
          onClick={editor.redo}
          title="Redo (Ctrl+Shift+Z)"
        >
          Redo
        </button>
        <button
          type="button"
          id="save"
          class="button-primary button-small"
          disabled={readOnly || !editor.dirty || saveBlocked || editor.saving}
          title={saveBlocked ? 'An invalid tree cannot be saved: fix the problems first' : 'Save (Ctrl+S)'}
          onClick={() => void editor.save()}
        >
          {editor.saving ? 'Saving…' : 'Save'}
        </button>
      </TopBar>
      <main id="editor-page" class="page page-editor">
        <div class="editor-file">
          <code>{editor.file.path}</code>
          {readOnly && editor.file.readOnlyReason ? <p class="note">{editor.file.readOnlyReason}</p> : null}
        </div>
        {editor.changedOnDisk ? (
          <div id="disk-conflict" class="banner is-warning" role="alert">
            The file changed on disk since you opened it.{' '}
            <button
              type="button"
              id="reload-from-disk"
              class="button-small"
              onClick={() => void editor.reload()}
            >
              Reload from disk{editor.dirty ? ' (drop my changes)' : ''}
            </button>
            {editor.dirty ? (
              <button
                type="button"
                id="overwrite"
                class="button-small is-danger"
                disabled={saveBlocked}
                onClick={() => void editor.save(true)}
              >
                Overwrite with mine
              </button>
            ) : null}
          </div>
        ) : null}
        {editor.saveError ? (
          <p id="save-error" class="banner is-error" role="alert">
            {editor.saveError}
          </p>
        ) : null}
        {notice ? (
          <p id="editor-notice" class="banner is-warning" role="status">
            {notice}
          </p>
        ) : null}
        <div class="editor-layout">
          <section class="editor-graph">
            <TreeGraph
              nodes={graph.nodes}
              groups={graph.groups}
              selected={selected}
              onSelect={select}
              path={path}
              heat={heat}
              findings={findings}
              onReparent={(id, parentId) => {
                const problem = reparentProblem(document, id, parentId);
                if (problem) setNotice(`Cannot move: ${problem}`);
                else edit((current) => reparent(current, id, parentId));
              }}
            />
            <RoutingPanel
              document={document}
              valid={check?.valid === true}
              selected={selected}
              nameOf={nameOf}
              utterances={editor.file.utterances}
              route={route}
              onRoute={setRoute}
              suggestions={suggestions}
              onSuggestions={setSuggestions}
              onApplyThreshold={(id, threshold) =>
                edit((current) => updateNode(current, id, { similarityThreshold: threshold }))
              }
              onSelect={select}
            />
          </section>
          <aside class="editor-side">
            {node ? (
              <NodeForm
                key={node.id}
                document={document}
                node={node}
                callbacks={editor.file.callbacks}
                problems={problems.filter((problem) => problem.nodeId === node.id)}
                lint={(check?.lint ?? []).filter((finding) => finding.nodeId === node.id)}
                suggestion={suggestions?.suggestions.find((item) => item.nodeId === node.id) ?? null}
                readOnly={readOnly}
                instance={instance}
                onMakeExplicit={(componentId) =>
                  edit((current) => makeInstanceExplicit(current, componentId))
                }
                head={head}
                onChangeHead={(patch) => {
                  if (head) edit((current) => updateNode(current, head.id, patch));
                }}
                siblings={documentNode ? siblingPosition(document, node.id) : { index: 0, count: 1 }}
                onMove={(direction) => edit((current) => moveAmongSiblings(current, node.id, direction))}
                onChange={(patch) => edit((current) => updateNode(current, node.id, patch))}
                onAddChild={(type) => {
                  const added = addChild(document, node.id, type);
                  setSelected(added.id);
                  edit(() => added.document);
                }}
                onAddComponent={() => {
                  const added = addComponent(document, node.id, 'component');
                  setSelected(added.id + 2);
                  edit(() => added.document);
                }}
                onInstantiate={(name) => {
                  const added = instantiateComponent(document, node.id, name);
                  setSelected(added.id);
                  edit(() => added.document);
                }}
                onDuplicate={() => {
                  const copied = duplicate(document, node.id);
                  setSelected(copied.id);
                  edit(() => copied.document);
                }}
                onDelete={() => {
                  const count = subtreeIds(document, node.id).size;
                  if (
                    count > 1 &&
                    !window.confirm(`Delete node ${node.id} and the ${count - 1} nodes below it?`)
                  )
                    return;
                  setSelected(node.parent ?? null);
                  edit((current) => deleteSubtree(current, node.id));
                }}
                onMakePrimary={() =>
                  edit((current) => ({
                    ...current,
                    nodes: current.nodes.map((item) =>
                      item.type !== 'agent'
                        ? item
                        : item.id === node.id
                          ? { ...item, isPrimary: true }
                          : (({ isPrimary: _dropped, ...rest }) => rest)(item),
                    ),
                  }))
                }
              />
            ) : (
              <p class="note">
                Select a node in the graph to edit it. Drag a node onto another to move it there.
              </p>
            )}
            <section id="problems" class="problems" aria-label="Problems">
              <h3>
                Problems {problems.length ? `(${problems.length})` : ''} and lint{' '}
                {check?.lint.length ? `(${check.lint.length})` : ''}
              </h3>
              {!problems.length && !check?.lint.length ? <p class="note">None.</p> : null}
              <ul>
                {problems.map((problem, index) => (
                  <li key={`p${index}`} class="finding is-error">
                    {problem.nodeId !== undefined ? (
                      <button type="button" class="link" onClick={() => select(problem.nodeId!)}>
                        {nameOf(problem.nodeId)}
                      </button>
                    ) : (
                      'tree'
                    )}
                    : {problem.message} <span class="finding-fix">Fix: {problem.fix}</span>
                  </li>
                ))}
                {(check?.lint ?? []).map((finding, index) => (
                  <li key={`l${index}`} class="finding is-warning">
                    <button type="button" class="link" onClick={() => select(finding.nodeId)}>
                      {nameOf(finding.nodeId)}
                    </button>
                    : {finding.message} <span class="finding-fix">Fix: {finding.fix}</span>
                  </li>
                ))}
              </ul>
            </section>
          </aside>
        </div>
      </main>
    </>
  );
}
