import { readFileSync } from 'node:fs';
import { NODE_TYPES } from '@treeagent/core';
import { TREE_DOCUMENT_SCHEMA } from '@treeagent/core/document';
import { expect, test } from 'vitest';
import { SECTION_PROPERTIES, schemaPropertiesOf } from './node-form/node-form-model';

const EDITOR_DOC = new URL('../../../../../docs/editor.md', import.meta.url);

/** The rows of docs/editor.md's "Every field" table: field name and where it is edited. */
function documentedRows(): { field: string; where: string }[] {
  const text = readFileSync(EDITOR_DOC, 'utf8');
  const section = text.slice(text.indexOf('### Every field'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| field |')));
  return [...table.matchAll(/^\| `(\w+)` \|[^|]*\| (.*) \|$/gm)].map((match) => ({
    field: match[1]!,
    where: match[2]!,
  }));
}

const schemaProperties = () => Object.keys(TREE_DOCUMENT_SCHEMA.$defs.node.properties).sort();

test('docs/editor.md lists every property of a node in the tree document schema, and where it is edited', () => {
  expect(
    documentedRows()
      .map((row) => row.field)
      .sort(),
  ).toEqual(schemaProperties());
});

test('no row of the table says a field is edited only in the JSON file', () => {
  expect(documentedRows().filter((row) => /JSON only/i.test(row.where))).toEqual([]);
});

test("every property of the schema has a field in the form: a section's, or a schema-driven one", () => {
  const edited = new Set([
    ...SECTION_PROPERTIES,
    ...NODE_TYPES.flatMap((type) => schemaPropertiesOf(type, {})),
  ]);
  expect(schemaProperties().filter((property) => !edited.has(property))).toEqual([]);
});
