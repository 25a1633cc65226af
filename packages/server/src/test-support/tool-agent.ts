import { defineTree, TreeAgent } from '@treeagent/core';
import { ExactEmbedder, ScriptedLanguageModel } from '@treeagent/core/test';

/** An agent whose answer calls a tool with personal data (a phone number) in its arguments and result. */
export function toolAgent(failing = false) {
  const model = new ScriptedLanguageModel({
    answers: [
      { toolCalls: [{ toolName: 'customer', input: { phone: '+39 333 1234567' } }] },
      'Bentornato, Mario!',
    ],
  });
  return new TreeAgent({
    tree: defineTree({
      name: 'tools-shop',
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: ['hello'],
          tools: {
            customer: {
              parameters: { type: 'object', properties: { phone: { type: 'string' } }, required: ['phone'] },
              execute: () => {
                if (failing) throw new Error('CRM down');
                return { name: 'Mario Rossi', email: 'mario@example.com' };
              },
            },
          },
          emit: { message: { type: 'generated' } },
        },
      ],
    }),
    models: model,
    embedder: new ExactEmbedder({ vectors: { hello: [1, 0] }, fallback: [1, 0] }),
  });
}
