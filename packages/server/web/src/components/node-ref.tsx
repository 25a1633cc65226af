import { useApp } from '../app/app-context';
import { useT } from '../i18n/use-t';

/** A node id as a button that shows the node in the tree; `—` for none. */
export function NodeRef({ id, onSelect }: { id: number | null | undefined; onSelect: (id: number) => void }) {
  const { nodeLabel } = useApp();
  const t = useT('common');
  if (id === null || id === undefined) return <span class="muted">—</span>;
  return (
    <button type="button" class="node-ref" title={t('showNodeInTree', { id })} onClick={() => onSelect(id)}>
      {nodeLabel(id)}
    </button>
  );
}
