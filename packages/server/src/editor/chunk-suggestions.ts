import type { LanguageModel } from '@treeagent/core/adapter';
import type { TreeDocument, TreeDocumentNode } from '@treeagent/core/document';
import type { RoutingEvaluation } from '@treeagent/core/evaluation';
import type { EditorChunkSuggestionsResponse } from '../api-types.js';

/** How many suggestions are asked for and shown. */
export const SUGGESTED_CHUNKS = 8;

/** What `suggestChunks` needs: the model (or none), the unmatched messages, embeddings, and the routing eval of a draft. */
export interface ChunkSuggestionDependencies {
  model: LanguageModel | null;
  /** The analytics' unmatched messages (without those a form or a pending question consumed), most frequent first. */
  unmatched(): Promise<{ message: string; count: number }[]>;
  /** Unit vectors of texts. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** The routing eval of a draft on the labelled utterances, or `null` when there are none. */
  evaluate(document: TreeDocument): Promise<RoutingEvaluation | null>;
}

const textsOf = (node: TreeDocumentNode | undefined): string[] =>
  (Array.isArray(node?.chunks) ? node.chunks : [])
    .map((chunk) => (typeof chunk === 'string' ? chunk : (chunk as { text?: unknown }).text))
    .filter((text): text is string => typeof text === 'string' && text.trim() !== '');

/** The prompt that asks the model for paraphrases of a node's chunks that stay clear of its siblings' intents. */
export function chunkSuggestionPrompt(
  node: TreeDocumentNode,
  siblings: TreeDocumentNode[],
  count: number,
): string {
  const list = (texts: string[]) => texts.map((text) => `- ${text}`).join('\n') || '- (none)';
  return [
    `A conversational agent routes each user message to the node whose example messages ("chunks") are most similar.`,
    `Write ${count} new example messages for the node "${node.name ?? `#${node.id}`}"${typeof node.description === 'string' ? ` (${node.description})` : ''}: different wordings a user would really type for the same intent, short, in the language of the existing ones, none repeating an existing one.`,
    `Its chunks now:\n${list(textsOf(node))}`,
    `Its siblings' chunks — other intents: do not write messages that would fit these:\n${siblings.map((sibling) => `${sibling.name ?? `#${sibling.id}`}:\n${list(textsOf(sibling))}`).join('\n') || '- (no siblings)'}`,
    `Answer with JSON: {"chunks": ["…", "…"]}.`,
  ].join('\n\n');
}

/** The chunks in a model's answer: the JSON `{ chunks }` asked for, else one per line. */
export function parseSuggestedChunks(text: string): string[] {
  try {
    const parsed = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as {
      chunks?: unknown;
    };
    if (Array.isArray(parsed.chunks))
      return parsed.chunks.filter((item): item is string => typeof item === 'string');
  } catch {
    // Not JSON: one suggestion per line.
  }
  return text
    .split('\n')
    .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').trim())
    .filter(Boolean);
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * Suggested chunks for node `nodeId` of a valid draft, and what they change in routing. With a
 * model: paraphrases it writes from the node's chunks, told its siblings' chunks to avoid their
 * intents. Without one: the unmatched messages that are closer to this node's chunks than to any
 * sibling's. Either way, new texts only (not a chunk of the node already), and the routing eval on
 * the labelled utterances without and with all of them: accuracy, the node's recall, and the
 * confusions they introduce.
 */
export async function suggestChunks(
  document: TreeDocument,
  nodeId: number,
  dependencies: ChunkSuggestionDependencies,
  count = SUGGESTED_CHUNKS,
): Promise<EditorChunkSuggestionsResponse> {
  const node = document.nodes.find((item) => item.id === nodeId)!;
  const siblings = document.nodes.filter((item) => item.id !== nodeId && item.parent === node.parent);
  const existing = new Set(textsOf(node).map((text) => text.toLowerCase()));
  const fresh = (texts: string[]) => {
    const seen = new Set(existing);
    return texts.filter((text) => {
      const key = text.trim().toLowerCase();
      if (!key || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  };
  let suggestions: { text: string; count: number | null }[];
  if (dependencies.model) {
    const answer = await dependencies.model.generate({
      messages: [{ role: 'user', content: chunkSuggestionPrompt(node, siblings, count) }],
      params: {},
    });
    suggestions = fresh(parseSuggestedChunks(answer.text))
      .slice(0, count)
      .map((text) => ({ text, count: null }));
  } else {
    const messages = await dependencies.unmatched();
    const own = textsOf(node);
    const others = siblings.flatMap(textsOf);
    const candidates = messages.filter((message) => !existing.has(message.message.trim().toLowerCase()));
    if (!own.length || !candidates.length) suggestions = [];
    else {
      const vectors = await dependencies.embed([
        ...own,
        ...others,
        ...candidates.map((item) => item.message),
      ]);
      const best = (vector: Float32Array, from: number, to: number) =>
        Math.max(-1, ...vectors.slice(from, to).map((other) => dot(vector, other)));
      suggestions = candidates
        .map((item, index) => {
          const vector = vectors[own.length + others.length + index]!;
          return {
            item,
            mine: best(vector, 0, own.length),
            theirs: best(vector, own.length, own.length + others.length),
          };
        })
        .filter((scored) => scored.mine > scored.theirs)
        .sort((a, b) => b.item.count - a.item.count || b.mine - a.mine)
        .slice(0, count)
        .map((scored) => ({ text: scored.item.message, count: scored.item.count }));
    }
  }
  const withThem: TreeDocument = {
    ...document,
    nodes: document.nodes.map((item) =>
      item.id === nodeId
        ? {
            ...item,
            chunks: [...(Array.isArray(item.chunks) ? item.chunks : []), ...suggestions.map((s) => s.text)],
          }
        : item,
    ),
  };
  const before = await dependencies.evaluate(document);
  const after = suggestions.length && before ? await dependencies.evaluate(withThem) : before;
  const name = typeof node.name === 'string' ? node.name : null;
  const recall = (report: RoutingEvaluation | null): number | null =>
    (name === null ? undefined : report?.perNode.find((score) => score.name === name)?.recall) ?? null;
  const confusionKey = (confusion: { expected: string; predicted: string }) =>
    `${confusion.expected}\u0000${confusion.predicted}`;
  const earlier = new Map((before?.confusions ?? []).map((item) => [confusionKey(item), item.count]));
  return {
    nodeId,
    source: dependencies.model ? 'model' : 'unmatched',
    suggestions,
    evaluation:
      before && after
        ? {
            utterances: before.total,
            accuracyBefore: before.accuracy,
            accuracyAfter: after.accuracy,
            recallBefore: recall(before),
            recallAfter: recall(after),
            confusionsIntroduced: after.confusions
              .map((item) => ({ ...item, count: item.count - (earlier.get(confusionKey(item)) ?? 0) }))
              .filter((item) => item.count > 0),
          }
        : null,
  };
}
