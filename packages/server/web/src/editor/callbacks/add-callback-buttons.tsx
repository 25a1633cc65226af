import type { TreeDocumentNode } from '@treeagent/core/client';
import { useT } from '../../i18n/use-t';
import { requestStub } from './callback-requests';
import { stubCallbacksOf } from './callback-stub';

/**
 * "Add before callback" (and after, where the node's type has a typed one) under the inspector's
 * callbacks: the Callbacks panel writes a typed stub into the module and opens it there, then the
 * node names it. Shown for callbacks the node does not name yet, when the tree has a module.
 */
export function AddCallbackButtons({
  node,
  supported,
  callbacks,
  hasModule,
  onCallbacks,
}: {
  node: TreeDocumentNode;
  supported: readonly string[];
  callbacks: Record<string, string>;
  hasModule: boolean;
  onCallbacks(next: Record<string, string>): void;
}) {
  const t = useT('callbacks');
  const missing = stubCallbacksOf(node.type, supported).filter((callback) => !callbacks[callback]);
  if (!hasModule || !missing.length) return null;
  return (
    <p class="add-callbacks">
      {missing.map((callback) => (
        <button
          key={callback}
          type="button"
          class="button-small"
          id={`add-callback-${callback}`}
          onClick={() =>
            requestStub({
              node: {
                id: node.id,
                type: node.type,
                name: typeof node.name === 'string' ? node.name : undefined,
              },
              callback,
              onWritten: (name) => onCallbacks({ ...callbacks, [callback]: name }),
            })
          }
        >
          {t(callback === 'before' ? 'addBefore' : 'addAfter')}
        </button>
      ))}
    </p>
  );
}
