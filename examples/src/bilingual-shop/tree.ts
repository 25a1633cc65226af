import { defineTree, type Tree } from '@treeagent/core';

/**
 * A small bike shop that speaks Italian and English (docs/multilingual-trees.md): every customer text
 * per language, chunks in both languages. A session speaks the page's locale when the client gives one
 * (`agent.setSessionLanguage`, `POST /api/v1/sessions` with `locale`), else the language of its first
 * message; Italian is the default.
 *
 * npx treeagent chat examples/src/bilingual-shop/tree.ts
 */
export const ids = { agent: 2, hours: 3, shipping: 4, person: 5, sorry: 9, rude: 10 } as const;

export function bilingualShopTree(): Tree {
  return defineTree({
    name: 'bilingual-shop',
    languages: ['it', 'en'],
    nodes: [
      { id: 1, type: 'root' },
      {
        id: ids.agent,
        type: 'agent',
        parent: 1,
        isPrimary: true,
        name: 'shop',
        links: { sorry: ids.sorry },
        fallback: (_self, _context, _special, links) => ({ nodeTarget: links.sorry }),
      },
      {
        id: ids.hours,
        type: 'emit',
        parent: ids.agent,
        name: 'hours',
        chunks: [
          { text: 'quali sono gli orari del negozio', language: 'it' },
          { text: 'a che ora aprite', language: 'it' },
          { text: 'siete aperti la domenica', language: 'it' },
          { text: 'what are your opening hours', language: 'en' },
          { text: 'what time do you open', language: 'en' },
          { text: 'are you open on sunday', language: 'en' },
        ],
        emit: {
          message: {
            type: 'static',
            content: {
              it: 'Siamo aperti dal lunedì al sabato, dalle 9 alle 19.',
              en: 'We are open Monday to Saturday, 9 am to 7 pm.',
            },
          },
        },
      },
      {
        id: ids.shipping,
        type: 'emit',
        parent: ids.agent,
        name: 'shipping',
        chunks: [
          { text: 'quanto costa la spedizione', language: 'it' },
          { text: 'spedite in tutta italia', language: 'it' },
          { text: 'how much is shipping', language: 'en' },
          { text: 'do you deliver abroad', language: 'en' },
        ],
        emit: {
          message: {
            type: 'static',
            content: {
              it: 'La spedizione costa 7,90 €, gratis sopra i 100 €. Dove spediamo?',
              en: 'Shipping costs €7.90, free over €100. Where should we ship?',
            },
          },
          options: [
            { it: 'Italia', en: 'Italy' },
            { it: 'Estero', en: 'Abroad' },
          ],
        },
      },
      {
        id: ids.person,
        type: 'empty',
        parent: ids.agent,
        name: 'person',
        chunks: [
          { text: 'voglio parlare con una persona', language: 'it' },
          { text: 'mi passi un operatore', language: 'it' },
          { text: 'I want to talk to a person', language: 'en' },
          { text: 'can I speak to a human', language: 'en' },
        ],
        after: () => ({
          handoff: {
            reason: 'asked for a person',
            message: {
              it: 'Ti passo un collega, ti risponderà a breve.',
              en: 'I am passing you to a colleague, who will answer shortly.',
            },
            returnOption: { it: "Torna all'assistente", en: 'Back to the assistant' },
          },
        }),
      },
      {
        id: ids.sorry,
        type: 'emit',
        parent: ids.agent,
        name: 'sorry',
        emit: {
          message: {
            type: 'static',
            content: {
              it: 'Scusa, non ho capito. Puoi chiedermi degli orari o delle spedizioni.',
              en: 'Sorry, I did not understand. You can ask me about opening hours or shipping.',
            },
          },
        },
      },
      {
        id: ids.rude,
        type: 'guardrail',
        parent: ids.agent,
        name: 'rude',
        chunks: [
          { text: 'sei un idiota', language: 'it' },
          { text: 'you are an idiot', language: 'en' },
        ],
        warning: { it: 'Restiamo gentili, per favore.', en: "Let's keep it polite, please." },
      },
    ],
  });
}

export default bilingualShopTree;
