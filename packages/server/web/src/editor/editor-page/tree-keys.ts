import type { GraphNode } from '../document-model';

/** A command of the tree's keyboard (docs/editor.md, *Keyboard shortcuts*). */
export type TreeKeyCommand =
  | 'select-parent'
  | 'select-child'
  | 'select-previous'
  | 'select-next'
  | 'move-earlier'
  | 'move-later'
  | 'add-child'
  | 'delete'
  | 'help';

/**
 * Which tree command a key press is, or null: arrows move the selection (up to the parent, down to
 * the first child, left and right among siblings), Alt with an arrow moves the selected node among
 * its siblings, A adds a child, Delete (or Backspace) deletes, ? opens the list. Never while typing
 * in a field, nor with Ctrl or ⌘ (those are save, undo and redo).
 */
export function treeKeyOf(event: {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  inField: boolean;
}): TreeKeyCommand | null {
  if (event.inField || event.ctrlKey || event.metaKey) return null;
  if (event.key === '?') return 'help';
  const arrows: Record<string, [TreeKeyCommand, TreeKeyCommand]> = {
    ArrowUp: ['select-parent', 'move-earlier'],
    ArrowDown: ['select-child', 'move-later'],
    ArrowLeft: ['select-previous', 'move-earlier'],
    ArrowRight: ['select-next', 'move-later'],
  };
  const arrow = arrows[event.key];
  if (arrow) return event.altKey ? arrow[1] : arrow[0];
  if (event.altKey) return null;
  if (event.key === 'a' || event.key === 'A') return 'add-child';
  if (event.key === 'Delete' || event.key === 'Backspace') return 'delete';
  return null;
}

/** The node an arrow selects from `selected` in the drawn tree (the root when nothing is selected), or null. */
export function arrowTarget(
  nodes: readonly GraphNode[],
  selected: number | null,
  command: 'select-parent' | 'select-child' | 'select-previous' | 'select-next',
): number | null {
  const current = nodes.find((node) => node.id === selected);
  if (!current) return nodes.find((node) => node.parentId === null)?.id ?? null;
  if (command === 'select-parent') return current.parentId;
  if (command === 'select-child') return nodes.find((node) => node.parentId === current.id)?.id ?? null;
  const siblings = nodes.filter((node) => node.parentId === current.parentId);
  const at = siblings.indexOf(current);
  return siblings[at + (command === 'select-previous' ? -1 : 1)]?.id ?? null;
}
