import { type ComponentDefinition, defineComponent, type RetrievedChunk } from '@treeagent/core';

/** A document of a knowledge base: retrieved by the query node and shown as the answer's source. */
export interface KnowledgeDocument {
  title: string;
  text: string;
}

export interface KnowledgeOptions {
  name: string;
  /** Short phrases that say what the knowledge base is about (signposts for exploration). */
  signposts: string[];
  documents: KnowledgeDocument[];
}

interface KnowledgeSelf {
  best?: RetrievedChunk;
  found?: RetrievedChunk[];
}

/**
 * The *knowledge* component of the seeds, without a language model: a query node retrieves the
 * closest documents; if any passes the threshold the emit node answers with the best one and cites
 * the sources, otherwise the query node fails with `outcome: failure` and the agent's anchor takes over.
 * Each use gets its own `self`, which carries the retrieved chunks from the query to the emit.
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
            extra: { title: document.title },
          })),
        ],
        links: { answer: 3 },
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
        parent: 2,
        name: `${options.name}: answer`,
        emit: (self) => ({
          message: { type: 'static', content: self.best!.text },
          sources: (self.found ?? []).map((chunk) => ({
            title: String(chunk.extra.title),
            content: chunk.text,
            chunkId: chunk.id,
          })),
        }),
      },
    ],
  });
}
