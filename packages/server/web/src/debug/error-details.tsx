import type { ErrorSummary } from '@treeagent/core/client';
import { NodeRef } from '../components/node-ref';
import { useT } from '../i18n/use-t';

/**
 * An error of the turn as the debug view shows it: code, the node and callback where it happened,
 * the message, and the first frame of the stack in the tree's own code (where to look).
 */
export function ErrorDetails({ error, onNode }: { error: ErrorSummary; onNode: (id: number) => void }) {
  const t = useT('debug');
  return (
    <span class="error-details">
      <code>{error.code}</code>
      {error.nodeId !== undefined ? (
        <>
          {error.callback !== undefined
            ? ` ${t('error.inCallback', { callback: error.callback })} `
            : ` ${t('error.at')} `}
          <NodeRef id={error.nodeId} onSelect={onNode} />
        </>
      ) : null}
      {`: ${error.message}`}
      {error.frame ? (
        <span class="error-frame">
          {` ${t('error.at')} `}
          <code>{error.frame}</code>
        </span>
      ) : null}
    </span>
  );
}
