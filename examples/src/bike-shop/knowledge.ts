import {
  type ComponentDefinition,
  type Context,
  defineComponent,
  type Links,
  type LlmAfterSpecial,
  type RetrievedChunk,
} from '@treeagent/core';

/** A document of a knowledge base: retrieved by the query node and shown as the answer's source. */
export interface KnowledgeDocument {
  title: string;
  text: string;
  /** Where the customer can read more: the answer's source links to it. */
  url?: string;
  /**
   * How customers ask for it ("fare un reso"): each routes messages to the knowledge base, as its
   * signposts do, and is retrieved beside the text, standing for the document. A short question is
   * far from a long text in the embedding space; without these, a message that a signpost brought
   * here may find no document and the node fails.
   */
  questions?: string[];
}

export interface KnowledgeOptions {
  name: string;
  /** Short phrases that say what the knowledge base is about (signposts for exploration). */
  signposts: string[];
  documents: KnowledgeDocument[];
  /**
   * With a language model: an llm node checks whether the retrieved documents answer the question,
   * and the answer is generated (streamed) from them. Without: the best document is the answer.
   */
  generative?: boolean;
}

interface KnowledgeSelf {
  best?: RetrievedChunk;
  found?: RetrievedChunk[];
}

/** The JSON the checking llm node must answer with. */
const CHECK_SCHEMA = {
  type: 'object',
  title: 'AnswerCheck',
  required: ['answerable'],
  properties: {
    answerable: {
      type: 'boolean',
      description: 'true when the documents contain the answer to the question',
    },
  },
  additionalProperties: false,
};

/** The document a retrieved chunk stands for: its text, or the text of the document a question asks for. */
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

const documentsOf = (self: KnowledgeSelf) =>
  (self.found ?? []).map((chunk) => `- ${String(chunk.extra.title)}: ${documentText(chunk)}`).join('\n');

/**
 * The *knowledge* component of the seeds. A query node retrieves the closest documents; when none
 * passes the threshold it fails with `outcome: failure` and the anchor takes over. Without a model
 * the emit node answers with the best document and cites the sources; with one (`generative`), an
 * llm node first checks that the documents answer the question (structured output), then the emit
 * node generates the answer from them, streamed. Each use has its own `self`, which carries the
 * retrieved chunks from node to node.
 */
export function knowledge(options: KnowledgeOptions): ComponentDefinition<KnowledgeSelf> {
  return defineComponent<KnowledgeSelf>({
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
        name: `${options.name}: search`,
        chunks: [
          // What routes messages here: the signposts, and every question a document lists.
          ...new Set([
            ...options.signposts,
            ...options.documents.flatMap((document) => document.questions ?? []),
          ]),
          ...options.documents.flatMap((document) => {
            const extra = { title: document.title, ...(document.url ? { url: document.url } : {}) };
            return [
              { text: document.text, forRag: true, extra },
              ...(document.questions ?? []).map((question) => ({
                text: question,
                forRag: true,
                extra: { ...extra, document: document.text },
              })),
            ];
          }),
        ],
        links: { answer: options.generative ? 4 : 3 },
        // Four chunks, for two documents once their questions are folded in.
        query: (_self, context) => ({ query: context.input.extended, chunkQty: 4, threshold: 0.15 }),
        after: (self, _context, special, links) => {
          const found = distinctDocuments(special.chunks, 2);
          if (found.length === 0) return { outcome: 'failure' };
          self.found = found;
          self.best = found[0];
          return { nodeTarget: links.answer, step: 'before' };
        },
      },
      {
        id: 3,
        type: 'emit',
        parent: options.generative ? 4 : 2,
        name: `${options.name}: answer`,
        ...(options.generative
          ? {
              prompt: (self: KnowledgeSelf, context: Context) => ({
                systemPrompt:
                  "Sei l'assistente di un negozio di biciclette. Rispondi in italiano, in modo breve e cordiale, usando solo i documenti dati.",
                prompt: `Documenti:\n${documentsOf(self)}\n\nDomanda: ${context.input.extended}`,
                modelParams: { temperature: 0.2 },
              }),
            }
          : {}),
        emit: (self: KnowledgeSelf) => ({
          message: options.generative
            ? { type: 'generated' as const }
            : { type: 'static' as const, content: documentText(self.best!) },
          sources: (self.found ?? []).map((chunk) => ({
            title: String(chunk.extra.title),
            ...(typeof chunk.extra.url === 'string' ? { url: chunk.extra.url } : {}),
            content: documentText(chunk),
            chunkId: chunk.id,
          })),
        }),
      },
      ...(options.generative
        ? [
            {
              id: 4,
              type: 'llm' as const,
              parent: 2,
              name: `${options.name}: check`,
              links: { answer: 3 },
              prompt: (self: KnowledgeSelf, context: Context) => ({
                systemPrompt:
                  'Decide if the documents contain the answer to the question. Answer only with the JSON object.',
                prompt: `Documents:\n${documentsOf(self)}\n\nQuestion: ${context.input.extended}`,
              }),
              responseFormat: { schema: CHECK_SCHEMA, attemptsLimit: 2 },
              after: (_self: KnowledgeSelf, _context: Context, special: LlmAfterSpecial, links: Links) =>
                special.failResponseFormat || !(special.object as { answerable?: boolean }).answerable
                  ? { outcome: 'failure' as const }
                  : { nodeTarget: links.answer, step: 'before' as const },
            },
          ]
        : []),
    ],
  });
}
