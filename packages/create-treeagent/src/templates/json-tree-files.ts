import type { Texts } from './texts.js';

/**
 * The tree of a new project as a JSON tree document (what the editor of `treeagent dev` edits) and
 * its typed callbacks module: the same tree, nodes, names and behaviour as the TypeScript template.
 * Callbacks name their targets through `links` (declared in the JSON), so the ids live in one place.
 */
export function jsonTreeFiles(texts: Texts, support: boolean): { document: string; callbacks: string } {
  const faqComponent = (faq: Texts['shipping']) => ({
    nodes: [
      { id: 1, type: 'head', callbacks: { init: 'faqInit' } },
      {
        id: 2,
        parent: 1,
        type: 'query',
        name: `${faq.name}: search`,
        chunks: [
          // What routes messages here: the signposts, and every question a document lists.
          ...new Set([...faq.signposts, ...faq.documents.flatMap((document) => document.questions)]),
          ...faq.documents.flatMap((document) => [
            { text: document.text, forRag: true, extra: { title: document.title } },
            ...document.questions.map((question) => ({
              text: question,
              forRag: true,
              extra: { document: document.text, title: document.title },
            })),
          ]),
        ],
        links: { answer: 3 },
        callbacks: { after: 'faqFound', query: 'faqQuery' },
      },
      { id: 3, parent: 2, type: 'emit', name: `${faq.name}: answer`, callbacks: { emit: 'faqAnswer' } },
    ],
  });
  const staticEmit = (content: string, extra: Record<string, unknown> = {}) => ({
    message: { type: 'static', content },
    ...extra,
  });
  const nodes: Record<string, unknown>[] = [
    { id: 1, type: 'root', defaultSimilarityThreshold: 0.2 },
    {
      id: 2,
      parent: 1,
      type: 'agent',
      name: 'assistant',
      isPrimary: true,
      links: { sorry: 90 },
      callbacks: { fallback: 'apologise' },
    },
    {
      id: 10,
      parent: 2,
      type: 'emit',
      name: 'greeting',
      chunks: texts.greeting.chunks,
      emit: staticEmit(texts.greeting.answer, { options: texts.greeting.options }),
    },
    {
      id: 11,
      parent: 2,
      type: 'emit',
      name: 'hours',
      chunks: texts.hours.chunks,
      emit: staticEmit(texts.hours.answer),
    },
    { id: 20, parent: 2, type: 'component', use: 'shipping', idBase: 200 },
    ...(support ? [{ id: 21, parent: 2, type: 'component', use: 'returns', idBase: 300 }] : []),
    {
      id: 30,
      parent: 2,
      type: 'empty',
      name: 'contact',
      isBlocking: true,
      chunks: texts.contact.chunks,
      links: { ask: 31, done: 32 },
      callbacks: { after: 'contactForm' },
    },
    {
      id: 31,
      parent: 30,
      type: 'emit',
      name: 'ask email',
      emit: staticEmit(texts.contact.askEmail, { waitInteraction: true }),
      links: { done: 32 },
      callbacks: { after: 'readEmail' },
    },
    { id: 32, parent: 30, type: 'emit', name: 'contact done', callbacks: { emit: 'contactDone' } },
    ...(support
      ? [
          {
            id: 40,
            parent: 2,
            type: 'empty',
            name: 'order',
            isBlocking: true,
            chunks: texts.order.chunks,
            links: { ask: 41, status: 42 },
            callbacks: { after: 'orderForm' },
          },
          {
            id: 41,
            parent: 40,
            type: 'emit',
            name: 'ask order number',
            emit: staticEmit(texts.order.askNumber, { waitInteraction: true }),
            links: { again: 43, status: 42 },
            callbacks: { after: 'readOrderNumber' },
          },
          { id: 42, parent: 40, type: 'emit', name: 'order status', callbacks: { emit: 'orderStatus' } },
          {
            id: 43,
            parent: 40,
            type: 'emit',
            name: 'ask order number again',
            emit: staticEmit(texts.order.askAgain, { waitInteraction: true }),
            links: { again: 43, status: 42 },
            callbacks: { after: 'readOrderNumber' },
          },
        ]
      : []),
    {
      id: 90,
      parent: 2,
      type: 'emit',
      name: 'sorry',
      emit: staticEmit(support ? texts.sorry.support : texts.sorry.answer),
    },
  ];
  const document = {
    $schema: '../node_modules/@treeagent/core/schema/tree-document.schema.json',
    format: 'treeagent-tree',
    version: 1,
    name: support ? 'support' : 'assistant',
    module: './tree.callbacks.ts',
    // By name, as the editor's stable layout writes them: its first save changes nothing else.
    components: {
      ...(support ? { returns: faqComponent(texts.returns) } : {}),
      shipping: faqComponent(texts.shipping),
    },
    nodes,
  };
  return { document: `${JSON.stringify(document, null, 2)}\n`, callbacks: callbacksModule(texts, support) };
}

function callbacksModule(texts: Texts, support: boolean): string {
  const q = (value: unknown) => JSON.stringify(value);
  return `// The callbacks of tree.json, by name: the JSON holds the data (chunks, messages, links, flags;
// edit it in the editor of \`npm run dev\`), this module the behaviour. Each export is typed with the
// callback it is, so \`npm test\` (tsc) checks its arguments and what it returns.
import type {
  AfterCallback,
  EmitCallback,
  FallbackCallback,
  InitCallback,
  QueryAfterCallback,
  QueryCallback,
  RetrievedChunk,
} from '@treeagent/core';

const EMAIL = /[^\\s@]+@[^\\s@]+\\.[a-z]{2,}/i;${support ? '\nconst ORDER_NUMBER = /\\b\\d{5,}\\b/;' : ''}

/** The agent's fallback: nothing fits the message (or a callback failed): answer with "sorry". */
export const apologise: FallbackCallback = (_self, _context, _special, links) => ({ nodeTarget: links.sorry! });

/** The contact form kept in the session state: the email is asked once, then remembered. */
export const contactForm: AfterCallback = (_self, context, _special, links) => ({
  nodeTarget: context.sessionState.has('email') ? links.done! : links.ask!,
  step: 'before',
});

/** The answer to "your email?": no email in it means the user changed subject; explore it from the agent. */
export const readEmail: AfterCallback = (_self, context, _special, links) => {
  const email = EMAIL.exec(context.input.original)?.[0];
  if (!email) return { outcome: 'failure' };
  context.sessionState.set('email', email);
  return { nodeTarget: links.done!, step: 'before' };
};

export const contactDone: EmitCallback = (_self, context) => ({
  message: {
    type: 'static',
    content: ${q(texts.contact.done)}.replace('{email}', context.sessionState.get<string>('email') ?? ''),
  },
});
${support ? orderCallbacks(texts) : ''}
/** The FAQ components (shipping${support ? ', returns' : ''}): each use has its own \`self\`. */
export interface FaqSelf {
  found: RetrievedChunk[];
}

export const faqInit: InitCallback<FaqSelf> = (self) => {
  self.found = [];
};

/**
 * The query node retrieves the chunks closest to the message: documents, and the questions each
 * document lists (\`extra.document\` holds the text of the document a question stands for). Four
 * chunks, for two documents once their questions are folded in.
 */
export const faqQuery: QueryCallback<FaqSelf> = (_self, context) => ({
  query: context.input.extended,
  chunkQty: 4,
  threshold: 0.15,
});

/** The text of the document a retrieved chunk stands for: its own, or the one its question asks for. */
const documentText = (chunk: RetrievedChunk) =>
  typeof chunk.extra.document === 'string' ? chunk.extra.document : chunk.text;

/** The retrieved documents, best first, each once (a document and its questions are one document). */
function distinctDocuments(chunks: readonly RetrievedChunk[], limit: number): RetrievedChunk[] {
  const seen = new Set<string>();
  return chunks
    .filter((chunk) => {
      const title = String(chunk.extra.title);
      if (seen.has(title)) return false;
      seen.add(title);
      return true;
    })
    .slice(0, limit);
}

/**
 * The two best documents. Nothing close enough: \`outcome: 'failure'\` climbs back to the agent,
 * which explores elsewhere.
 */
export const faqFound: QueryAfterCallback<FaqSelf> = (self, _context, special, links) => {
  const found = distinctDocuments(special.chunks, 2);
  if (found.length === 0) return { outcome: 'failure' };
  self.found = found;
  return { nodeTarget: links.answer!, step: 'before' };
};

/** Answers with the best document and cites them. */
export const faqAnswer: EmitCallback<FaqSelf> = (self) => ({
  message: { type: 'static', content: self.found[0] ? documentText(self.found[0]) : '' },
  sources: self.found.map((chunk) => ({ title: String(chunk.extra.title), content: documentText(chunk) })),
});
`;
}

function orderCallbacks(texts: Texts): string {
  const q = (value: unknown) => JSON.stringify(value);
  return `
/** The order status: the order number is asked once, then remembered. */
export const orderForm: AfterCallback = (_self, context, _special, links) => ({
  nodeTarget: context.sessionState.has('order') ? links.status! : links.ask!,
  step: 'before',
});

/**
 * The answer to "what is your order number?": digits but no number in it (a typo) asks again; no
 * digits at all, the user changed subject: \`outcome: 'failure'\` explores the message from the agent.
 */
export const readOrderNumber: AfterCallback = (_self, context, _special, links) => {
  const order = ORDER_NUMBER.exec(context.input.original)?.[0];
  if (!order && /\\d/.test(context.input.original)) return { nodeTarget: links.again!, step: 'before' };
  if (!order) return { outcome: 'failure' };
  context.sessionState.set('order', order);
  return { nodeTarget: links.status!, step: 'before' };
};

export const orderStatus: EmitCallback = (_self, context) => ({
  message: {
    type: 'static',
    content: ${q(texts.order.status)}.replace('{order}', context.sessionState.get<string>('order') ?? ''),
  },
});
`;
}
