import { describe, expect, it } from 'vitest';
import { defineTree } from './define-tree.js';
import { formatTreeDocument } from './format-tree-document.js';
import { definitionToDocument, documentToDefinition } from './tree-document.js';
import type { TreeDocument } from './tree-document-types.js';
import { definitionFromJSON, definitionToJSON } from './tree-json.js';
import { validateTreeDocument } from './validate-tree-document.js';

/** A tree document in two languages: every kind of customer text given per language. */
const document: TreeDocument = {
  format: 'treeagent-tree',
  version: 1,
  name: 'negozio',
  languages: ['it', 'en'],
  nodes: [
    { id: 1, type: 'root', conversationGoal: { it: 'aiutare i clienti', en: 'help customers' } },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    {
      id: 3,
      parent: 2,
      type: 'emit',
      chunks: [
        { text: 'quanto costa la spedizione', language: 'it' },
        { text: 'how much is shipping', language: 'en' },
      ],
      emit: {
        message: { type: 'static', content: { it: 'La spedizione costa 5 €.', en: 'Shipping costs €5.' } },
        options: [{ it: 'Altro', en: 'More' }, 'FAQ'],
      },
    },
    { id: 4, parent: 2, type: 'guardrail', chunks: ['idiota'], warning: { it: 'Calma.', en: 'Easy now.' } },
  ],
};

describe('per-language texts in the JSON tree document', () => {
  it('the schema accepts languages, per-language texts and chunk languages', () => {
    expect(validateTreeDocument(document)).toEqual([]);
  });

  it('the schema refuses a text keyed by something that is not a language code, and bad languages', () => {
    const broken = structuredClone(document) as unknown as {
      languages: unknown;
      nodes: { emit?: { message: { content: unknown } } }[];
    };
    broken.languages = ['it', 'it'];
    broken.nodes[2]!.emit!.message.content = { italiano: 'Ciao' };
    const problems = validateTreeDocument(broken).map((problem) => problem.message);
    expect(problems.join('\n')).toMatch(/languages/);
    expect(problems.join('\n')).toMatch(/content/);
  });

  it('round-trips unchanged: document → definition → tree → document gives the same bytes', () => {
    const tree = defineTree(documentToDefinition(document, {}));
    expect(tree.languages).toEqual(['it', 'en']);
    const back = definitionToDocument(tree.definition, { nameOf: () => 'unused' });
    expect(formatTreeDocument(back)).toBe(formatTreeDocument(document));
  });

  it('round-trips through the plain JSON form too', () => {
    const tree = defineTree(documentToDefinition(document, {}));
    const json = definitionToJSON(tree.definition);
    expect(json.languages).toEqual(['it', 'en']);
    expect(defineTree(definitionFromJSON(json)).contentHash).toBe(tree.contentHash);
  });

  it('the formatted document keeps languages after the name and a chunk language after its text', () => {
    const text = formatTreeDocument(document);
    expect(text.indexOf('"languages"')).toBeGreaterThan(text.indexOf('"name"'));
    expect(text).toMatch(/"text": "how much is shipping",\s+"language": "en"/);
  });
});
