import { useApp } from '../app/app-context';

/** A node id as a button that shows the node in the tree; `—` for none. */
export function NodeRef({ id, onSelect }: { id: number | null | undefined; onSelect: (id: number) => void }) {
  const { nodeLabel } = useApp();
  if (id === null || id === undefined) return <span class="muted">—</span>;
  return (
    <button type="button" class="node-ref" title={`Show node ${id} in the tree`} onClick={() => onSelect(id)}>
      {nodeLabel(id)}
    </button>
  );
}
