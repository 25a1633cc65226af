import type { TreeDocument } from '@treeagent/core/client';
import { describe, expect, it } from 'vitest';
import { tOf } from '../../i18n/use-t';
import { deleteQuestion } from './delete-question';

const document = {
  name: 'shop',
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, parent: 1, type: 'agent', isPrimary: true, links: { sorry: 90 } },
    { id: 3, parent: 2, type: 'emit', name: 'hours', chunks: ['opening hours'] },
    { id: 90, parent: 2, type: 'emit', name: 'sorry' },
  ],
} as TreeDocument;

describe('the question before a delete', () => {
  it('is asked for a single node too, and names the links that point into what goes', () => {
    const t = tOf('editor');
    expect(deleteQuestion(t, document, 3)).toBe('Delete node 3?');
    expect(deleteQuestion(t, document, 90)).toBe(
      'Delete node 90?\n\nNode 2 link "sorry" points into what goes: it stays, listed as a problem until it points elsewhere.',
    );
    expect(deleteQuestion(t, document, 2)).toMatch(/^Delete node 2 and the 2 nodes below it\?$/);
  });
});
