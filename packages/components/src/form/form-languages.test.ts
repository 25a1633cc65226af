import { defineTree, TreeAgent } from '@treeagent/core';
import { describe, expect, test } from 'vitest';
import { form } from './form.js';

// Tuesday 1 December 2026, 11:00 in Rome.
const now = () => new Date('2026-12-01T10:00:00Z');

/** One form in a tree that speaks Italian and English: its texts given per language. */
function bilingualAgent(language?: 'it' | 'en') {
  return new TreeAgent({
    tree: defineTree({
      languages: ['it', 'en'],
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 4,
          type: 'component',
          parent: 2,
          idBase: 100,
          use: form({
            name: 'table',
            ...(language ? { language } : {}),
            triggers: [
              { text: 'vorrei prenotare un tavolo', language: 'it' },
              { text: 'I would like to book a table', language: 'en' },
            ],
            intro: { it: 'Certo, prenotiamo.', en: "Sure, let's book." },
            now,
            confirm: true,
            slots: [
              {
                name: 'people',
                type: 'integer',
                question: { it: 'Per quante persone?', en: 'For how many people?' },
                label: { it: 'Persone', en: 'People' },
                keywords: ['persone', 'people'],
                min: 1,
                max: 12,
              },
            ],
            onComplete: () => undefined,
          }),
        },
      ],
    }),
  });
}

describe('a form in a tree that speaks several languages', () => {
  test("asks, labels and confirms in the session's language", async () => {
    const agent = bilingualAgent();
    await agent.setSessionLanguage('en', 'en');
    const asked = await agent.send('en', 'I would like to book a table');
    expect(asked.messages[0]!.content).toBe("Sure, let's book. For how many people?");
    const confirm = await agent.send('en', '4 people');
    expect(confirm.messages[0]!.content).toContain('- People: 4');
    expect(confirm.messages[0]!.options).toEqual(['Yes', 'No']);

    await agent.setSessionLanguage('it', 'it');
    const chiesto = await agent.send('it', 'vorrei prenotare un tavolo');
    expect(chiesto.messages[0]!.content).toBe('Certo, prenotiamo. Per quante persone?');
    const conferma = await agent.send('it', '4 persone');
    expect(conferma.messages[0]!.content).toContain('- Persone: 4');
    expect(conferma.messages[0]!.options).toEqual(['Sì', 'No']);
  });

  test("a form's own language wins over the session's: the whole form speaks it", async () => {
    const agent = bilingualAgent('it');
    await agent.setSessionLanguage('en', 'en');
    await agent.send('en', 'I would like to book a table');
    const confirm = await agent.send('en', '4 people');
    expect(confirm.messages[0]!.options).toEqual(['Sì', 'No']);
    expect(confirm.messages[0]!.content).toContain('- Persone: 4');
  });
});
