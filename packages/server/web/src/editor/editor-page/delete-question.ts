import type { TreeDocument } from '@treeagent/core/client';
import type { TFunction } from 'i18next';
import { linksInto, subtreeIds } from '../document-model';

/**
 * What the editor asks before it deletes a node (the button and the Delete key alike): how many
 * nodes go with it, and which links of other nodes point into what goes — they stay, listed as
 * problems until they point elsewhere.
 */
export function deleteQuestion(t: TFunction, document: TreeDocument, id: number): string {
  const below = subtreeIds(document, id).size - 1;
  const question = below
    ? t('shortcuts.confirmDeleteSubtree', { id, count: below })
    : t('shortcuts.confirmDelete', { id });
  const links = linksInto(document, id);
  if (!links.length) return question;
  const named = links.map((link) => t('shortcuts.linkOf', { id: link.nodeId, link: link.link })).join(', ');
  return `${question}\n\n${t('shortcuts.confirmDeleteLinks', { count: links.length, links: named })}`;
}
