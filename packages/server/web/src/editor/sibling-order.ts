import type { TreeDocument } from '@treeagent/core/client';
import { tOf } from '../i18n/use-t';
import { childrenOf, moveAmongSiblings, nodeOf } from './document-model';

/** Where a dragged node goes beside its drop target: before it or after it among their siblings. */
export type DropSide = 'before' | 'after';

/** Why `id` cannot be put beside `targetId` among its siblings, or `null` when it can. */
export function reorderProblem(document: TreeDocument, id: number, targetId: number): string | null {
  const t = tOf('editor');
  const node = nodeOf(document, id);
  const target = nodeOf(document, targetId);
  if (!node) return t('reparent.noNode', { id });
  if (!target) return t('reparent.noNode', { id: targetId });
  if (node.parent == null) return t('reparent.root');
  if (node.parent !== target.parent)
    return t('order.notSiblings', { id, target: targetId, parent: node.parent });
  return null;
}

/**
 * Moves a node (with its subtree) among its siblings to just before or after `targetId`, a sibling:
 * one `moveAmongSiblings` step at a time, so the order of the nodes in the file follows (a subtree
 * moves as a block). Unchanged when the target is not a sibling.
 */
export function moveBeside(
  document: TreeDocument,
  id: number,
  targetId: number,
  side: DropSide,
): TreeDocument {
  if (reorderProblem(document, id, targetId)) return document;
  const parent = nodeOf(document, id)!.parent as number;
  const order = () => childrenOf(document, parent).map((node) => node.id);
  const at = order().indexOf(id);
  const targetAt = order().indexOf(targetId);
  const wanted =
    side === 'before' ? (targetAt > at ? targetAt - 1 : targetAt) : targetAt < at ? targetAt + 1 : targetAt;
  let current = document;
  const direction = wanted < at ? -1 : 1;
  for (let step = 0; step < Math.abs(wanted - at); step++)
    current = moveAmongSiblings(current, id, direction);
  return current;
}
