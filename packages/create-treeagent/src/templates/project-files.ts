import type { Language, Template, TreeFormat } from '../project-kind.js';
import { jsonTreeFiles } from './json-tree-files.js';
import { TEXTS, type Texts } from './texts.js';

export interface ProjectSettings {
  name: string;
  language: Language;
  template: Template;
  /** `json` (default): src/tree.json and src/tree.callbacks.ts; `ts`: src/tree.ts and src/faq.ts. */
  format?: TreeFormat;
  /** Version range of @treeagent/core and @treeagent/cli. */
  treeagentRange: string;
}

/** Every file of a new project, by path relative to its directory. */
export function projectFiles(settings: ProjectSettings): Record<string, string> {
  const texts = TEXTS[settings.language];
  const support = settings.template === 'support';
  return {
    'package.json': `${JSON.stringify(packageJson(settings), null, 2)}\n`,
    'tsconfig.json': TSCONFIG,
    // src/tree.fit.json (npm run fit) is kept: it ships the fit with the project.
    '.gitignore': 'node_modules/\n.treeagent/\n',
    // USE-lite runs on onnxruntime-node, whose install script would fetch CUDA libraries from
    // api.nuget.org on Linux x64 (hundreds of MB it never uses; offline, npm drops the optional
    // dependency and USE-lite falls back to TensorFlow.js); the CPU runtime ships in its npm package.
    ...(settings.language === 'en' ? { '.npmrc': 'onnxruntime-node-install=skip\n' } : {}),
    'README.md': readme(settings),
    ...treeFiles(settings, texts, support),
    'tests/conversations.yaml': conversations(texts, support),
    'data/utterances.tsv': `${texts.utterances.map(([text, node]) => `${text}\t${node}`).join('\n')}\n`,
  };
}

/** The tree's files: a JSON document and its callbacks module, or TypeScript modules. */
function treeFiles(settings: ProjectSettings, texts: Texts, support: boolean): Record<string, string> {
  if (settings.format === 'ts')
    return { 'src/tree.ts': treeModule(texts, support), 'src/faq.ts': FAQ_COMPONENT };
  const { document, callbacks } = jsonTreeFiles(texts, support);
  return { 'src/tree.json': document, 'src/tree.callbacks.ts': callbacks };
}

/** The tree file the scripts run. */
export function treeFileOf(settings: Pick<ProjectSettings, 'format'>): string {
  return settings.format === 'ts' ? 'src/tree.ts' : 'src/tree.json';
}

function packageJson(settings: ProjectSettings) {
  const tree = treeFileOf(settings);
  return {
    name: settings.name,
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: { node: '>=20' },
    scripts: {
      dev: `treeagent dev ${tree}`,
      chat: `treeagent chat ${tree}`,
      test: `tsc --noEmit && treeagent lint ${tree} && treeagent test ${tree} tests`,
      eval: `treeagent eval ${tree} data/utterances.tsv`,
      fit: `treeagent fit ${tree} --utterances data/utterances.tsv`,
      lint: `treeagent lint ${tree}`,
    },
    dependencies: {
      '@treeagent/core': settings.treeagentRange,
      // English trees fit their space over USE-lite + hashed n-grams at load (docs/routing.md).
      ...(settings.language === 'en' ? { '@treeagent/embedder-use': settings.treeagentRange } : {}),
    },
    devDependencies: {
      '@treeagent/cli': settings.treeagentRange,
      '@types/node': '^20.19.0',
      typescript: '^5.9.3',
    },
  };
}

const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "noUncheckedIndexedAccess": true,
    "exactOptionalPropertyTypes": true,
    "verbatimModuleSyntax": true,
    "isolatedModules": true,
    "skipLibCheck": false,
    "noEmit": true,
    "types": ["node"]
  },
  "include": ["src"]
}
`;

function readme(settings: ProjectSettings): string {
  return `# ${settings.name}

A conversational agent built with [Tree Agent](https://www.npmjs.com/package/@treeagent/core): a
tree of typed nodes, routed by semantic similarity.

| command | what |
|---|---|
| \`npm run dev\` | the chat page, the debug view and the tree view on http://127.0.0.1:3000/, reloading when \`src/\` changes |
| \`npm run chat\` | talk to the agent in the terminal (\`-- --debug\` shows each routing decision) |
| \`npm test\` | type check, lint the tree, play the conversation tests of \`tests/\` |
| \`npm run eval\` | routing accuracy on \`data/utterances.tsv\` (one message and the node it should reach per line, or \`none\`) |
| \`npm run fit\` | fit the embedding space to the tree's chunks ahead (sharper routing on trees of 100 chunks or more): writes \`src/tree.fit.json\`, which \`dev\`, \`chat\`, \`eval\` and \`treeagent serve\` use from the first message while the chunks are unchanged — commit it to ship it; below 100 chunks it says that the file is not used |
| \`npm run lint\` | unreachable nodes, ambiguous siblings, … |

${
  settings.format === 'ts'
    ? `The tree is in \`src/tree.ts\`; \`src/faq.ts\` is a component (a small knowledge base answering from
its documents) used by the tree. Node ids are constants (\`ids\`) so that callbacks name their
targets with types that hold under \`noUncheckedIndexedAccess\`.`
    : `The tree is the JSON document \`src/tree.json\` — nodes, chunks, messages, links and flags as data,
edited in the tree editor of \`npm run dev\` (http://127.0.0.1:3000/staff/editor) or by hand — and
its behaviour is \`src/tree.callbacks.ts\`, whose named exports are the callbacks the document names
(each typed with the callback it is: \`npm test\` type-checks them). \`components\` holds the FAQ, a
small knowledge base answering from its documents, used by the tree.`
}

${
  settings.language === 'en'
    ? `The tree starts small and routes in the hashed space, unfitted. From 100 exploration chunks on,
the agent fits its embedding space to the tree when it loads, over USE-lite
(\`@treeagent/embedder-use\`, an English sentence encoder whose weights ship in npm) and hashed
n-grams: routing gets sharper and out-of-scope messages are declined. Below 100 it does not: on
small trees a fit routed worse (the routing guide of Tree Agent, "Small trees"), so \`npm run fit\`
says its file is not used until the tree has 100 chunks. \`treeagent dev\` prints the space it
routes in.

`
    : ''
}Without a language model the agent routes, answers with static texts and cites its sources. To
generate answers, set \`OPENAI_API_KEY\` (or see the models guide of Tree Agent for Ollama, Azure,
Anthropic).
`;
}

const FAQ_COMPONENT = `import { defineComponent, type RetrievedChunk } from '@treeagent/core';

export interface FaqDocument {
  title: string;
  text: string;
  /**
   * How customers ask for it ("exchange a size"): each routes messages to the FAQ, as its signposts
   * do, and is retrieved beside the text, standing for the document. A short question is far from a
   * long text; without these, a message the signposts brought here may find no document, and the
   * FAQ fails.
   */
  questions?: string[];
}

export interface FaqOptions {
  name: string;
  /** Short phrases saying what the FAQ is about: they route messages to it. */
  signposts: string[];
  documents: FaqDocument[];
}

interface FaqSelf {
  found: RetrievedChunk[];
}

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
 * A small knowledge base: the query node retrieves the documents closest to the message (or to one
 * of their questions); the emit node answers with the best one and cites them. Nothing close enough:
 * \`outcome: 'failure'\` climbs back to the agent, which explores the message elsewhere. Each use of
 * the component has its own \`self\`. Inside a component, nodes name each other through \`links\`
 * (ids are remapped when the component is used); reading a link that does not exist throws, hence
 * the \`!\`.
 */
export function faq(options: FaqOptions) {
  return defineComponent<FaqSelf>({
    name: options.name,
    nodes: [
      {
        id: 1,
        type: 'head',
        init: (self) => {
          self.found = [];
        },
      },
      {
        id: 2,
        type: 'query',
        parent: 1,
        name: \`\${options.name}: search\`,
        chunks: [
          // What routes messages here: the signposts, and every question a document lists.
          ...new Set([...options.signposts, ...options.documents.flatMap((document) => document.questions ?? [])]),
          ...options.documents.flatMap((document) => [
            { text: document.text, forRag: true, extra: { title: document.title } },
            ...(document.questions ?? []).map((question) => ({
              text: question,
              forRag: true,
              extra: { title: document.title, document: document.text },
            })),
          ]),
        ],
        links: { answer: 3 },
        // Four chunks, for two documents once their questions are folded in.
        query: (_self, context) => ({ query: context.input.extended, chunkQty: 4, threshold: 0.15 }),
        after: (self, _context, special, links) => {
          const found = distinctDocuments(special.chunks, 2);
          if (found.length === 0) return { outcome: 'failure' };
          self.found = found;
          return { nodeTarget: links.answer!, step: 'before' };
        },
      },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        name: \`\${options.name}: answer\`,
        emit: (self) => ({
          message: { type: 'static', content: self.found[0] ? documentText(self.found[0]) : '' },
          sources: self.found.map((chunk) => ({ title: String(chunk.extra.title), content: documentText(chunk) })),
        }),
      },
    ],
  });
}
`;

/** The support template's order-number reader, shared by the node that asks and the one that asks again. */
const ORDER_NUMBER_READER = `
const ORDER_NUMBER = /\\b\\d{5,}\\b/;

/**
 * The answer to "what is your order number?": digits but no number in it (a typo) asks again; no
 * digits at all, the user changed subject: \`outcome: 'failure'\` explores the message from the agent.
 */
const readOrderNumber: AfterCallback = (_self, context) => {
  const order = ORDER_NUMBER.exec(context.input.original)?.[0];
  if (!order && /\\d/.test(context.input.original)) return { nodeTarget: ids.askOrderNumberAgain, step: 'before' };
  if (!order) return { outcome: 'failure' };
  context.sessionState.set('order', order);
  return { nodeTarget: ids.orderStatus, step: 'before' };
};`;

function treeModule(texts: Texts, support: boolean): string {
  const q = (value: unknown) => JSON.stringify(value);
  return `import { ${support ? 'type AfterCallback, ' : ''}defineTree } from '@treeagent/core';
import { faq } from './faq.js';

/**
 * Node ids. Callbacks name their targets with these constants (typed); each node also declares
 * where its callbacks lead in \`links\`, which is what \`treeagent lint\` follows.
 */
export const ids = {
  root: 1,
  assistant: 2,
  greeting: 10,
  hours: 11,
  shipping: 20,${support ? '\n  returns: 21,' : ''}
  contact: 30,
  askEmail: 31,
  contactDone: 32,${support ? '\n  order: 40,\n  askOrderNumber: 41,\n  orderStatus: 42,\n  askOrderNumberAgain: 43,' : ''}
  sorry: 90,
} as const;

const EMAIL = /[^\\s@]+@[^\\s@]+\\.[a-z]{2,}/i;${support ? ORDER_NUMBER_READER : ''}

export default defineTree({
  name: ${q(support ? 'support' : 'assistant')},
  nodes: [
    { id: ids.root, type: 'root', defaultSimilarityThreshold: 0.2 },
    {
      // The agent: where exploration starts; when no child matches, its fallback answers.
      id: ids.assistant,
      type: 'agent',
      parent: ids.root,
      isPrimary: true,
      name: 'assistant',
      links: { sorry: ids.sorry },
      fallback: () => ({ nodeTarget: ids.sorry }),
    },
    {
      id: ids.greeting,
      type: 'emit',
      parent: ids.assistant,
      name: 'greeting',
      chunks: ${q(texts.greeting.chunks)},
      emit: {
        message: { type: 'static', content: ${q(texts.greeting.answer)} },
        options: ${q(texts.greeting.options)},
      },
    },
    {
      id: ids.hours,
      type: 'emit',
      parent: ids.assistant,
      name: 'hours',
      chunks: ${q(texts.hours.chunks)},
      emit: { message: { type: 'static', content: ${q(texts.hours.answer)} } },
    },
    // A component: the FAQ's nodes are copied in at idBase (its node 2 becomes 202).
    { id: ids.shipping, type: 'component', parent: ids.assistant, use: faq(${q(texts.shipping)}), idBase: 200 },${
      support
        ? `\n    { id: ids.returns, type: 'component', parent: ids.assistant, use: faq(${q(texts.returns)}), idBase: 300 },`
        : ''
    }
    {
      // A form kept in the session state: the email is asked once, then remembered.
      id: ids.contact,
      type: 'empty',
      parent: ids.assistant,
      name: 'contact',
      isBlocking: true,
      links: { ask: ids.askEmail, done: ids.contactDone },
      chunks: ${q(texts.contact.chunks)},
      after: (_self, context) => ({
        nodeTarget: context.sessionState.has('email') ? ids.contactDone : ids.askEmail,
        step: 'before',
      }),
    },
    {
      id: ids.askEmail,
      type: 'emit',
      parent: ids.contact,
      name: 'ask email',
      links: { done: ids.contactDone },
      emit: { message: { type: 'static', content: ${q(texts.contact.askEmail)} }, waitInteraction: true },
      after: (_self, context) => {
        const email = EMAIL.exec(context.input.original)?.[0];
        // No email in the answer: the user changed subject; explore the message from the agent.
        if (!email) return { outcome: 'failure' };
        context.sessionState.set('email', email);
        return { nodeTarget: ids.contactDone, step: 'before' };
      },
    },
    {
      id: ids.contactDone,
      type: 'emit',
      parent: ids.contact,
      name: 'contact done',
      emit: (_self, context) => ({
        message: {
          type: 'static',
          content: ${q(texts.contact.done)}.replace('{email}', context.sessionState.get<string>('email') ?? ''),
        },
      }),
    },${support ? supportNodes(texts) : ''}
    {
      id: ids.sorry,
      type: 'emit',
      parent: ids.assistant,
      name: 'sorry',
      emit: { message: { type: 'static', content: ${q(support ? texts.sorry.support : texts.sorry.answer)} } },
    },
  ],
});
`;
}

function supportNodes(texts: Texts): string {
  const q = (value: unknown) => JSON.stringify(value);
  return `
    {
      id: ids.order,
      type: 'empty',
      parent: ids.assistant,
      name: 'order',
      isBlocking: true,
      links: { ask: ids.askOrderNumber, status: ids.orderStatus },
      chunks: ${q(texts.order.chunks)},
      after: (_self, context) => ({
        nodeTarget: context.sessionState.has('order') ? ids.orderStatus : ids.askOrderNumber,
        step: 'before',
      }),
    },
    {
      id: ids.askOrderNumber,
      type: 'emit',
      parent: ids.order,
      name: 'ask order number',
      links: { status: ids.orderStatus, again: ids.askOrderNumberAgain },
      emit: { message: { type: 'static', content: ${q(texts.order.askNumber)} }, waitInteraction: true },
      after: readOrderNumber,
    },
    {
      id: ids.askOrderNumberAgain,
      type: 'emit',
      parent: ids.order,
      name: 'ask order number again',
      links: { status: ids.orderStatus, again: ids.askOrderNumberAgain },
      emit: { message: { type: 'static', content: ${q(texts.order.askAgain)} }, waitInteraction: true },
      after: readOrderNumber,
    },
    {
      id: ids.orderStatus,
      type: 'emit',
      parent: ids.order,
      name: 'order status',
      emit: (_self, context) => ({
        message: {
          type: 'static',
          content: ${q(texts.order.status)}.replace('{order}', context.sessionState.get<string>('order') ?? ''),
        },
      }),
    },`;
}

function conversations(texts: Texts, support: boolean): string {
  const t = texts.tests;
  const q = (value: string) => JSON.stringify(value);
  return `# Scripted conversations: npm test plays them against the tree and shows what differs.
conversations:
  - name: greeting, hours and the FAQ
    turns:
      - say: ${q(t.hello)}
        expect:
          node: greeting
          options: ${JSON.stringify(texts.greeting.options)}
      - say: ${q(t.hours)}
        expect:
          node: hours
      - say: ${q(t.shippingQuestion)}
        expect:
          node: "${texts.shipping.name}: answer"
          message: ${q(t.shippingAnswer)}
${
  support
    ? `      - say: ${q(t.returnsQuestion)}
        expect:
          node: "${texts.returns.name}: answer"
          message: ${q(t.returnsAnswer)}
`
    : ''
}
  - name: a question in the customer's words finds its document
    turns:
${t.faqQuestions
  .filter((question) => support || question.node === 'shipping')
  .map(
    (question) => `      - say: ${q(question.say)}
        expect:
          node: "${texts[question.node].name}: answer"
          message: ${q(question.answer)}
`,
  )
  .join('')}
  - name: the contact form remembers the email
    turns:
      - say: ${q(t.contact)}
        expect:
          node: ask email
      - say: ${q(t.email)}
        expect:
          node: contact done
          state: { email: ada@example.com }
      - say: ${q(t.contact)}
        expect:
          node: contact done
${
  support
    ? `
  - name: the order status asks for the number once
    turns:
      - say: ${q(t.order)}
        expect:
          node: ask order number
      - say: ${q(t.notAnOrderNumber)}
        expect:
          node: ask order number again
      - say: ${q(t.orderNumber)}
        expect:
          node: order status
          message: "123456"
`
    : ''
}
  - name: a message nothing matches gets the fallback
    turns:
      - say: ${q(t.offTopic)}
        expect:
          node: sorry
`;
}
