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

const documentsOf = (self: KnowledgeSelf) =>
  (self.found ?? []).map((chunk) => `- ${String(chunk.extra.title)}: ${chunk.text}`).join('\n');

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
          ...options.signposts,
          ...options.documents.map((document) => ({
            text: document.text,
            forRag: true,
            extra: { title: document.title, ...(document.url ? { url: document.url } : {}) },
          })),
        ],
        links: { answer: options.generative ? 4 : 3 },
        query: (_self, context) => ({ query: context.input.extended, chunkQty: 2, threshold: 0.15 }),
        after: (self, _context, special, links) => {
          if (special.chunks.length === 0) return { outcome: 'failure' };
          self.found = special.chunks;
          self.best = special.chunks[0];
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
            : { type: 'static' as const, content: self.best!.text },
          sources: (self.found ?? []).map((chunk) => ({
            title: String(chunk.extra.title),
            ...(typeof chunk.extra.url === 'string' ? { url: chunk.extra.url } : {}),
            content: chunk.text,
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
