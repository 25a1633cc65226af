import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { turnPath } from '../debug/turn-trace';
import type { NodeSelection, TreeHighlight } from '../tree/tree-view';
import type { InspectorTab } from './inspector';
import type { Turn } from './turn-model';

/** What the tree highlights as "the path": a turn's, a routed text's, or none. */
type PathSource = { kind: 'turn'; key: number } | { kind: 'route'; path: number[] } | { kind: 'none' };

/** The state of the chat's inspector: which tab is open, the turn it debugs, the tree's highlight and selection. */
export interface InspectorState {
  tab: InspectorTab | null;
  inspected: Turn | null;
  highlight: TreeHighlight;
  pathLegend: string;
  selection: NodeSelection | null;
  /** Opens a tab; the debug tab shows the last finished turn when none is inspected yet. */
  open(tab: InspectorTab): void;
  /** Closes the panel and gives the focus back to its toggle button. */
  close(): void;
  toggle(tab: InspectorTab): void;
  /** Debugs `turn` (and highlights its path). */
  inspect(turn: Turn): void;
  /** Selects a node in the tree (and focuses it). */
  selectNode(id: number): void;
  /** A turn ended: its path is highlighted, and it is debugged if the debug tab is open. */
  turnEnded(turn: Turn, debug: boolean): void;
  /** A text was routed: its path is highlighted. */
  routed(path: number[]): void;
  /** A new session: nothing inspected, no path. */
  reset(): void;
}

/**
 * The inspector's state over the conversation's `turns`. The highlighted path and its legend are
 * derived from them: the session's current node is where the latest answered turn ended (or where
 * the restored history left it).
 */
export function useInspector(turns: readonly Turn[], restoredNode: number | null): InspectorState {
  const [tab, setTab] = useState<InspectorTab | null>(null);
  const [inspectedKey, setInspectedKey] = useState<number | null>(null);
  const [selection, setSelection] = useState<NodeSelection | null>(null);
  const [pathSource, setPathSource] = useState<PathSource>({ kind: 'none' });
  const openTab = useRef(tab);
  openTab.current = tab;

  useEffect(() => {
    document.body.classList.toggle('side-open', tab !== null);
    return () => document.body.classList.remove('side-open');
  }, [tab]);

  const inspected = turns.find((turn) => turn.key === inspectedKey) ?? null;
  const latest = turns.findLast((turn) => turn.output);
  const current = latest?.output?.nodeId ?? restoredNode;
  const pathTurn = pathSource.kind === 'turn' ? turns.find((turn) => turn.key === pathSource.key) : undefined;
  const path = pathSource.kind === 'route' ? pathSource.path : pathTurn?.output ? turnPath(pathTurn) : [];
  const pathKey = path.join(',');
  // The path's identity is its ids: a new array with the same ids is the same highlight.
  const highlight = useMemo(() => ({ path, current }), [pathKey, current]);
  const pathLegend =
    pathSource.kind === 'route'
      ? 'path of the routed text'
      : pathTurn && pathTurn !== latest
        ? `path of turn ${pathTurn.number}`
        : "last turn's path";

  const inspect = (turn: Turn) => {
    setInspectedKey(turn.key);
    if (turn.output) setPathSource({ kind: 'turn', key: turn.key });
  };
  const open = (next: InspectorTab) => {
    setTab(next);
    if (next === 'debug' && !inspected) {
      const last = turns.findLast((turn) => (turn.output || turn.error) && !turn.restored);
      if (last) inspect(last);
    }
  };
  return {
    tab,
    inspected,
    highlight,
    pathLegend,
    selection,
    open,
    close: () => {
      setTab(null);
      document.getElementById(`toggle-${tab ?? 'tree'}`)?.focus();
    },
    toggle: (next) => (tab === next ? setTab(null) : open(next)),
    inspect,
    selectNode: (id) => setSelection((previous) => ({ id, seq: (previous?.seq ?? 0) + 1, focus: true })),
    turnEnded: (turn, debug) => {
      if (turn.output) setPathSource({ kind: 'turn', key: turn.key });
      // The tab open now, not when the turn started.
      if (openTab.current === 'debug' && debug) setInspectedKey(turn.key);
    },
    routed: (routedPath) => setPathSource({ kind: 'route', path: routedPath }),
    reset: () => {
      setInspectedKey(null);
      setPathSource({ kind: 'none' });
    },
  };
}
