import { describe, expect, it } from 'vitest';
import { defineTree } from './define-tree.js';
import { matchLanguage, textIn } from './localized-text.js';
import type { NodeDefinition } from './node-definition.js';
import { TreeValidationError } from './tree-validation-error.js';

describe('textIn: the text of one language', () => {
  it('a plain string is itself in every language', () => {
    expect(textIn('Ciao!', 'en', 'it')).toBe('Ciao!');
    expect(textIn('Ciao!', null, null)).toBe('Ciao!');
  });

  it("picks the session's language, then the default, then any text it has", () => {
    const text = { it: 'Ciao!', en: 'Hi!' };
    expect(textIn(text, 'en', 'it')).toBe('Hi!');
    expect(textIn(text, 'it', 'it')).toBe('Ciao!');
    expect(textIn({ it: 'Ciao!' }, 'en', 'it')).toBe('Ciao!');
    expect(textIn({ es: 'Hola' }, 'en', 'it')).toBe('Hola');
  });

  it('an empty translation is skipped: never an empty message when another language has one', () => {
    expect(textIn({ it: 'Ciao!', en: '' }, 'en', 'it')).toBe('Ciao!');
    expect(textIn({ en: '', es: 'Hola' }, 'en', 'it')).toBe('Hola');
  });

  it('a regional session language falls back to its primary language', () => {
    expect(textIn({ it: 'Ciao!', en: 'Hi!' }, 'en-GB', 'it')).toBe('Hi!');
    expect(textIn({ 'pt-BR': 'Oi!', pt: 'Olá!' }, 'pt-BR', null)).toBe('Oi!');
  });
});

describe('matchLanguage: the declared language a locale stands for', () => {
  it('the same code, else the same primary language, else none', () => {
    expect(matchLanguage('en', ['it', 'en'])).toBe('en');
    expect(matchLanguage('it-IT', ['it', 'en'])).toBe('it');
    expect(matchLanguage('EN_gb', ['it', 'en'])).toBe('en');
    expect(matchLanguage('pt-BR', ['pt-PT', 'pt-BR'])).toBe('pt-BR');
    expect(matchLanguage('de', ['it', 'en'])).toBeNull();
    expect(matchLanguage('it', [])).toBeNull();
  });
});

const base: NodeDefinition[] = [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
];

function problemsOf(definition: Parameters<typeof defineTree>[0]): string[] {
  try {
    defineTree(definition);
  } catch (error) {
    if (TreeValidationError.isInstance(error))
      return error.problems.map((problem) => `${problem.nodeId ?? '-'}: ${problem.message} ${problem.fix}`);
    throw error;
  }
  return [];
}

describe('defineTree: languages and per-language texts', () => {
  it('accepts per-language texts in messages, options, warnings and the goal, and keeps the languages', () => {
    const tree = defineTree({
      languages: ['it', 'en'],
      nodes: [
        { id: 1, type: 'root', conversationGoal: { it: 'vendere bici', en: 'sell bikes' } },
        base[1]!,
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: [
            { text: 'ciao', language: 'it' },
            { text: 'hello', language: 'en' },
          ],
          emit: {
            message: { type: 'static', content: { it: 'Ciao!', en: 'Hi!' } },
            options: [{ it: 'Sì', en: 'Yes' }, 'OK'],
          },
        },
        { id: 4, type: 'guardrail', parent: 2, chunks: ['insulto'], warning: { it: 'Calma.', en: 'Easy.' } },
      ],
    });
    expect(tree.languages).toEqual(['it', 'en']);
    expect(tree.defaultLanguage).toBe('it');
    expect(tree.definition.languages).toEqual(['it', 'en']);
  });

  it('a tree that declares no languages has none and no default', () => {
    const tree = defineTree({ nodes: [...base] });
    expect(tree.languages).toEqual([]);
    expect(tree.defaultLanguage).toBeNull();
  });

  it('refuses languages that are not a list of distinct language codes, saying how to write them', () => {
    expect(problemsOf({ languages: [], nodes: [...base] })).toEqual([
      expect.stringMatching(/"languages" is \[\], not a list.*languages: \["it", "en"\]/),
    ]);
    expect(problemsOf({ languages: ['it', 'italiano', 'it'], nodes: [...base] })).toEqual([
      expect.stringMatching(/"italiano", which is not a language code/),
      expect.stringMatching(/lists "it" twice/),
    ]);
  });

  it('refuses a per-language text keyed by something that is not a language, naming node and field', () => {
    const problems = problemsOf({
      languages: ['it', 'en'],
      nodes: [
        ...base,
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: ['ciao'],
          emit: {
            message: { type: 'static', content: { italiano: 'Ciao!' } },
            options: [{ en: 3 as never }],
          },
        },
        { id: 4, type: 'guardrail', parent: 2, chunks: ['x'], warning: {} },
      ],
    });
    expect(problems).toEqual([
      expect.stringMatching(
        /^3: "emit.message.content" has the key "italiano", which is not a language code/,
      ),
      expect.stringMatching(/^3: "emit.options\[0\]" in en is 3, not a string/),
      expect.stringMatching(/^4: a guardrail needs a "warning".*\{ it: "…", en: "…" \}/),
    ]);
  });
});
