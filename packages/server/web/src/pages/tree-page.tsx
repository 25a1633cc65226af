import { useEffect, useMemo, useState } from 'preact/hooks';
import { useApp } from '../app/app-context';
import { TopBar } from '../app/top-bar';
import { TreePanel } from '../tree/tree-panel';
import type { NodeSelection } from '../tree/tree-view';

/** The tree page: the whole effective tree, its nodes' details and (debug mode) the route tester. */
export function TreePage() {
  const { treeStatus, setReady } = useApp();
  const [selection, setSelection] = useState<NodeSelection | null>(null);
  const [path, setPath] = useState<number[]>([]);
  const highlight = useMemo(() => ({ path, current: null }), [path]);
  useEffect(() => {
    if (treeStatus !== 'loading') setReady(true);
    return () => setReady(false);
  }, [treeStatus, setReady]);
  return (
    <>
      <TopBar />
      <main id="tree-page" class="page page-tree">
        <TreePanel
          highlight={highlight}
          pathLegend={path.length ? 'path of the routed text' : 'path of a routed text'}
          selection={selection}
          onSelect={(id) => setSelection((previous) => ({ id, seq: (previous?.seq ?? 0) + 1, focus: true }))}
          onRoute={setPath}
        />
      </main>
    </>
  );
}
