import { describe, expect, it } from 'vitest';
import { defineTree } from '../tree/define-tree.js';
import type { NodeDefinition } from '../tree/node-definition.js';
import { lintTree } from './lint-tree.js';

const base: NodeDefinition[] = [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true, fallback: () => ({ nodeTarget: 3 }) },
];

async function languageLint(nodes: NodeDefinition[], languages?: string[]) {
  const warnings = await lintTree(defineTree({ ...(languages ? { languages } : {}), nodes }));
  return warnings
    .filter((warning) =>
      ['undeclared-languages', 'missing-text', 'unknown-language', 'missing-chunks-language'].includes(
        warning.code,
      ),
    )
    .map((warning) => `${warning.code} ${warning.nodeId}: ${warning.message} Fix: ${warning.fix}`);
}

describe('lint: the languages of a tree', () => {
  it('lists every text missing in a declared language, by node, field and language', async () => {
    const warnings = await languageLint(
      [
        { id: 1, type: 'root', conversationGoal: { it: 'vendere bici' } },
        base[1]!,
        {
          id: 3,
          type: 'emit',
          parent: 2,
          name: 'saluto',
          chunks: ['ciao'],
          emit: {
            message: { type: 'static', content: { it: 'Ciao!', en: '' } },
            options: ['OK', { it: 'Sì', en: 'Yes' }, { en: 'No' }],
          },
        },
        { id: 4, type: 'guardrail', parent: 2, chunks: ['scemo'], warning: { it: 'Calma.', en: 'Easy.' } },
      ],
      ['it', 'en'],
    );
    expect(warnings).toEqual([
      expect.stringMatching(
        /^missing-text 1: node 1: conversationGoal has no text in "en"; a session in en gets the it text\. Fix: Add en: "…" to conversationGoal of node 1\.$/,
      ),
      expect.stringMatching(
        /^missing-text 3: node 3 \("saluto"\): emit\.message\.content has no text in "en".*Add en: "…" to emit\.message\.content of node 3/,
      ),
      expect.stringMatching(
        /^missing-text 3: node 3 \("saluto"\): emit\.options\[2\] has no text in "it"; a session in it gets another language/,
      ),
    ]);
  });

  it('a per-language text in a tree without languages says what to add', async () => {
    const warnings = await languageLint([
      ...base,
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['ciao'],
        emit: { message: { type: 'static', content: { it: 'Ciao!', en: 'Hi!' } } },
      },
    ]);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^undeclared-languages 3: node 3 gives emit\.message\.content per language \(it, en\), but the tree declares no languages.*Fix: Add languages: \["it", "en"\] to the tree/,
      ),
    ]);
  });

  it('texts and chunks in a language the tree does not declare, and nodes without chunks in one', async () => {
    const warnings = await languageLint(
      [
        ...base,
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: [{ text: 'ciao', language: 'it' }, { text: 'hallo', language: 'de' }, 'hola'],
          emit: { message: { type: 'static', content: { it: 'Ciao!', en: 'Hi!', de: 'Hallo!' } } },
        },
      ],
      ['it', 'en'],
    );
    expect(warnings).toEqual([
      expect.stringMatching(
        /^unknown-language 3: node 3: emit\.message\.content has a text in "de", which is not one of the tree's languages \(it, en\)/,
      ),
      expect.stringMatching(/^unknown-language 3: node 3 has chunks in "de"/),
      expect.stringMatching(
        /^missing-chunks-language 3: node 3 has chunks in it, de but none in "en".*language: "en"/,
      ),
    ]);
  });

  it('plain strings and a complete tree give no language warning', async () => {
    const warnings = await languageLint(
      [
        ...base,
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: [{ text: 'ciao', language: 'it' }, { text: 'hello', language: 'en' }, 'ok'],
          emit: { message: { type: 'static', content: { it: 'Ciao!', en: 'Hi!' } }, options: ['FAQ'] },
        },
        { id: 4, type: 'guardrail', parent: 2, chunks: ['x'], warning: 'Stop.' },
      ],
      ['it', 'en'],
    );
    expect(warnings).toEqual([]);
  });
});
