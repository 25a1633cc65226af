import { readFileSync } from 'node:fs';
import { TREE_DOCUMENT_SCHEMA } from '@treeagent/core/document';
import { expect, test } from 'vitest';

const EDITOR_DOC = new URL('../../../../../docs/editor.md', import.meta.url);

/** The first-column field names of docs/editor.md's "Every field" table. */
function documentedFields(): string[] {
  const text = readFileSync(EDITOR_DOC, 'utf8');
  const section = text.slice(text.indexOf('### Every field'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| field |')));
  return [...table.matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1]!);
}

test('docs/editor.md lists every property of a node in the tree document schema, and where it is edited', () => {
  const schema = Object.keys(TREE_DOCUMENT_SCHEMA.$defs.node.properties).sort();
  expect(documentedFields().sort()).toEqual(schema);
});
