import { form } from '@treeagent/components';
import { defineTree, type NodeDefinition, TreeAgent, type TreeAgentOptions } from '@treeagent/core';
import { ExactEmbedder, ScriptedLanguageModel } from '@treeagent/core/test';
import { VECTORS } from './fixtures.js';
import { handoffNodes, RETURN_OPTION } from './handoff.js';

/** The texts of the widget's shop that route (exactly) to a node, with one dimension each. */
const EXTRA = ['book a repair', 'receipt', 'guide', 'flaky'] as const;

/** The sources of the `guide` answer: one with a link, one without. */
export const GUIDE_SOURCES = [
  { title: 'Tyre pressure guide', url: 'https://docs.example.com/tyres#pressure', content: 'Road: 6–8 bar.' },
  { title: 'Workshop notes', content: 'Check the valve first.' },
];

/** What the `receipt` answer attaches: a text file the user can download. */
export const RECEIPT_TEXT = 'Receipt 1001\nTotal: 42 EUR\n';

/**
 * The widget tests' shop: the handoff shop (`hello` with options, `story` streamed with a source,
 * `human` hands off) plus a repair booking form (`book a repair`: the bike, then an e-mail address
 * that the form checks, then Yes/No), `receipt` (names the files the user sent, attaches a file),
 * `guide` (an answer with sources) and `flaky` (fails once per session, then answers: for Retry).
 * Mocks (labelled): an exact embedder and a scripted model.
 */
export function widgetAgent(options: Omit<TreeAgentOptions, 'tree'> = {}): TreeAgent {
  const dimensions = Object.keys(VECTORS).length + EXTRA.length;
  const axis = (index: number) => Array.from({ length: dimensions }, (_, at) => (at === index ? 1 : 0));
  const vectors: Record<string, number[]> = {};
  for (const [text, vector] of Object.entries(VECTORS))
    vectors[text] = [...vector, ...new Array<number>(EXTRA.length).fill(0)];
  EXTRA.forEach((text, index) => {
    vectors[text] = axis(Object.keys(VECTORS).length + index);
  });
  vectors[RETURN_OPTION] = vectors.hello!;
  const failed = new Set<string>();
  const repair = form({
    name: 'repair',
    language: 'en',
    triggers: ['book a repair'],
    intro: "Sure, let's book the workshop.",
    slots: [
      {
        name: 'bike',
        type: 'enum',
        question: 'What kind of bike?',
        options: { road: ['road bike'], mtb: ['mountain bike'] },
      },
      { name: 'email', type: 'email', question: 'Your e-mail address?' },
    ],
    onComplete: (values) => `Booked: your ${String(values.bike)} bike, we write to ${String(values.email)}.`,
  });
  const nodes: NodeDefinition[] = [
    ...handoffNodes(),
    { id: 20, type: 'component', parent: 2, use: repair, idBase: 100 },
    {
      id: 21,
      type: 'emit',
      parent: 2,
      name: 'receipt',
      chunks: ['receipt'],
      emit: async (_self, context) => {
        const received = context.fileAgent.attachments.map((file) => file.name);
        const receipt = await context.fileAgent.create({
          name: 'receipt-1001.txt',
          mimeType: 'text/plain',
          data: RECEIPT_TEXT,
        });
        return {
          message: {
            type: 'static',
            content: `Received: ${received.join(', ') || 'no file'}. Your receipt is attached.`,
          },
          attachments: [receipt],
        };
      },
    },
    {
      id: 22,
      type: 'emit',
      parent: 2,
      name: 'guide',
      chunks: ['guide'],
      emit: {
        message: { type: 'static', content: 'Pump road tyres to **6–8 bar**.' },
        sources: GUIDE_SOURCES,
      },
    },
    {
      id: 23,
      type: 'emit',
      parent: 2,
      name: 'flaky',
      chunks: ['flaky'],
      emit: (_self, context) => {
        if (!failed.has(context.metadata.sessionId)) {
          failed.add(context.metadata.sessionId);
          throw new Error('the stock service timed out');
        }
        return { message: { type: 'static', content: 'In stock: 3 bikes.' } };
      },
    },
  ];
  return new TreeAgent({
    tree: defineTree({ name: 'widget-shop', nodes }),
    embedder: new ExactEmbedder({ vectors }),
    models: new ScriptedLanguageModel({ answers: 'Once upon a time, a bike.' }),
    ...options,
  });
}
