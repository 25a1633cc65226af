import type { TreeDocument } from '@treeagent/core/client';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import type { EditorRouteResponse, EditorSuggestionsResponse } from '../../../src/api-types';
import { useApp } from '../app/app-context';
import { TopBar } from '../app/top-bar';
import { CallbacksPanel } from '../editor/callbacks/callbacks-panel';
import { effectiveGraph, reparent, reparentProblem, updateNode } from '../editor/document-model';
import { isDraftField } from '../editor/draft-field';
import { EditorBanners } from '../editor/editor-page/editor-banners';
import { EditorLogin, LOGIN_ERRORS } from '../editor/editor-page/editor-login';
import {
  findingCounts,
  heatOf,
  nodeDisplayName,
  routedPath,
  selectionOf,
} from '../editor/editor-page/editor-page-model';
import { EditorToolbar } from '../editor/editor-page/editor-toolbar';
import { ProblemsList } from '../editor/editor-page/problems-list';
import { SelectedNodeForm } from '../editor/editor-page/selected-node-form';
import { ShortcutsHelp } from '../editor/editor-page/shortcuts-help';
import { useEditorShortcuts } from '../editor/editor-page/use-editor-shortcuts';
import { useTreeKeys } from '../editor/editor-page/use-tree-keys';
import { useUnsavedGuard } from '../editor/editor-page/use-unsaved-guard';
import { RoutingPanel } from '../editor/routing-panel';
import { moveBeside, reorderProblem } from '../editor/sibling-order';
import { TreeGraph } from '../editor/tree-graph';
import { useEditor } from '../editor/use-editor';
import { VersionsPanel } from '../editor/versions-panel';
import '../editor/editor.css';
import { useT } from '../i18n/use-t';

/**
 * The tree editor (docs/editor.md): the draft as a graph, the selected node's inspector, routing
 * while editing, problems and lint on the nodes, undo/redo, save with conflict detection. Its
 * sections are in `editor/editor-page/`, the draft's state in `use-editor.ts`.
 */
export function EditorPage() {
  const { setReady } = useApp();
  const t = useT('editor');
  const editor = useEditor();
  const [selected, setSelected] = useState<number | null>(null);
  const [route, setRoute] = useState<EditorRouteResponse | null>(null);
  const [suggestions, setSuggestions] = useState<EditorSuggestionsResponse | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  /** A draft field holds typed text not committed yet (Save is enabled for it). */
  const [typing, setTyping] = useState(false);
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
  useEditorShortcuts(editor);
  useUnsavedGuard(editor.dirty || typing, t('leaveUnsaved'));

  const graph = useMemo(() => (document ? effectiveGraph(document) : null), [document]);
  useTreeKeys({ document, nodes: graph?.nodes ?? [], selected, onSelect: setSelected, edit, readOnly });
  const findings = useMemo(() => findingCounts(check), [check]);
  const nameOf = useCallback((id: number) => nodeDisplayName(document, check, id), [document, check]);
  const path = useMemo(() => routedPath(route), [route]);
  const heat = useMemo(() => heatOf(route), [route]);

  if (editor.status === 'failed' && editor.loadErrorCode && LOGIN_ERRORS.has(editor.loadErrorCode))
    return <EditorLogin onLogin={editor.reload} />;
  if (editor.status === 'loading' || editor.status === 'failed' || !document || !graph || !editor.file)
    return (
      <>
        <TopBar />
        <main class="page page-editor">
          {editor.status === 'loading' ? (
            <p class="note">{t('loading')}</p>
          ) : (
            <p id="editor-error" class="finding is-error">
              {editor.loadError}
            </p>
          )}
        </main>
      </>
    );

  const selection = selectionOf(document, graph, selected);
  const { node } = selection;
  const problems = check?.problems ?? [];
  const saveBlocked = !check?.valid || editor.checking;

  return (
    <>
      <TopBar>
        <EditorToolbar
          editor={editor}
          problems={problems.length}
          readOnly={readOnly}
          saveBlocked={saveBlocked}
          typing={typing}
        />
        <ShortcutsHelp />
      </TopBar>
      <main
        id="editor-page"
        class="page page-editor"
        // After the field's own handlers (bubbling): typing enables Save, the commit ends it.
        onInput={(event) => isDraftField(event.target) && setTyping(true)}
        onChange={(event) => isDraftField(event.target) && setTyping(false)}
      >
        <EditorBanners
          editor={editor}
          file={editor.file}
          readOnly={readOnly}
          saveBlocked={saveBlocked}
          notice={notice}
        />
        <div class="editor-layout">
          <section class="editor-graph">
            <TreeGraph
              nodes={graph.nodes}
              groups={graph.groups}
              selected={selected}
              onSelect={setSelected}
              path={path}
              heat={heat}
              findings={findings}
              onReparent={(id, parentId) => {
                const problem = reparentProblem(document, id, parentId);
                if (problem) setNotice(t('order.cannotMove', { problem }));
                else edit((current) => reparent(current, id, parentId));
              }}
              onReorder={(id, targetId, side) => {
                const problem = reorderProblem(document, id, targetId);
                if (problem) setNotice(t('order.refused', { problem }));
                else edit((current) => moveBeside(current, id, targetId, side));
              }}
              onDropNowhere={() => setNotice(t('order.nowhere'))}
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
              onSelect={setSelected}
            />
          </section>
          <aside class="editor-side">
            {node ? (
              <SelectedNodeForm
                key={node.id}
                document={document}
                selection={{ ...selection, node }}
                check={check}
                suggestions={suggestions}
                callbacks={editor.file.callbacks}
                readOnly={readOnly}
                edit={edit}
                onSelect={setSelected}
              />
            ) : (
              <p class="note">{t('selectNode')}</p>
            )}
            <ProblemsList check={check} nameOf={nameOf} onSelect={setSelected} />
            <VersionsPanel />
            {readOnly ? null : <CallbacksPanel />}
          </aside>
        </div>
      </main>
    </>
  );
}
