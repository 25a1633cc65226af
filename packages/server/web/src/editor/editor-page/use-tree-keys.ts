import type { TreeDocument } from '@treeagent/core/client';
import { useEffect, useRef } from 'preact/hooks';
import { useT } from '../../i18n/use-t';
import { addChild, deleteSubtree, type GraphNode, moveAmongSiblings, nodeOf } from '../document-model';
import { deleteQuestion } from './delete-question';
import { arrowTarget, treeKeyOf } from './tree-keys';

/** Whether a key press is typed into a field (inputs, text areas, selects, a code editor). */
export function inField(target: EventTarget | null): boolean {
  return Boolean((target as Element | null)?.closest?.('input, textarea, select, [contenteditable], dialog'));
}

/**
 * The tree's keyboard on the window (docs/editor.md, *Keyboard shortcuts*): arrows select, Alt+arrows
 * reorder siblings, A adds a child (emit), Delete deletes the subtree after a confirmation; each edit
 * one undo step. `?` is the help dialog's own (`ShortcutsHelp`).
 */
export function useTreeKeys(options: {
  document: TreeDocument | null;
  nodes: readonly GraphNode[];
  selected: number | null;
  onSelect(id: number | null): void;
  edit(change: (current: TreeDocument) => TreeDocument): void;
  readOnly: boolean;
}): void {
  const t = useT('editor');
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    const keys = (event: KeyboardEvent) => {
      const { document, nodes, selected, onSelect, edit, readOnly } = latest.current;
      const { key, altKey, ctrlKey, metaKey } = event;
      const command = treeKeyOf({ key, altKey, ctrlKey, metaKey, inField: inField(event.target) });
      if (!command || command === 'help' || !document) return;
      event.preventDefault();
      if (command.startsWith('select-')) {
        const next = arrowTarget(nodes, selected, command as Parameters<typeof arrowTarget>[2]);
        if (next !== null) {
          onSelect(next);
          globalThis.document
            .querySelector(`[data-node-id="${next}"]`)
            ?.scrollIntoView?.({ block: 'nearest' });
        }
        return;
      }
      const node = selected === null ? undefined : nodeOf(document, selected);
      if (readOnly || !node) return;
      if (command === 'move-earlier' || command === 'move-later')
        edit((current) => moveAmongSiblings(current, node.id, command === 'move-earlier' ? -1 : 1));
      else if (command === 'add-child') {
        const added = addChild(document, node.id, 'emit');
        edit(() => added.document);
        onSelect(added.id);
      } else if (command === 'delete' && node.parent != null) {
        if (!window.confirm(deleteQuestion(t, document, node.id))) return;
        onSelect(node.parent);
        edit((current) => deleteSubtree(current, node.id));
      }
    };
    window.addEventListener('keydown', keys);
    return () => window.removeEventListener('keydown', keys);
  }, [t]);
}
