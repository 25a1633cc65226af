import { createHash } from 'node:crypto';
import {
  HashedEmbedder,
  type Tree,
  TreeAgent,
  TreeAgentError,
  type TreeValidationError,
} from '@treeagent/core';
import type { Embedder } from '@treeagent/core/adapter';
import { formatTreeDocument, type TreeDocument, validateTreeDocument } from '@treeagent/core/document';
import { evaluateRouting, lintTree } from '@treeagent/core/evaluation';
import type {
  EditorAmbiguityResponse,
  EditorCheckResponse,
  EditorChunkSuggestionsResponse,
  EditorProblem,
  EditorRouteResponse,
  EditorState,
  EditorSuggestionsResponse,
} from '../api-types.js';
import { describeTree } from '../tree/tree-view.js';
import { suggestChunks } from './chunk-suggestions.js';
import type { TreeEditorSource } from './tree-editor-source.js';
import { VersionFeed } from './version-feed.js';

/** A draft that builds: its tree and an agent that routes on it (never serving a session). */
interface Draft {
  tree: Tree;
  agent: TreeAgent;
}

type Built = { draft: Draft; problems: [] } | { draft: null; problems: EditorProblem[] };

/** How many built drafts are kept (each keystroke of a route test reuses the last one). */
const DRAFTS_KEPT = 4;
/** Most chunk vectors kept for heat maps and ambiguity. */
const VECTORS_KEPT = 50_000;
/** Sibling chunk pairs shown per node. */
const AMBIGUOUS_PAIRS = 8;
/** Share of in-scope utterances a suggested threshold keeps (as `treeagent eval`'s default). */
const SUGGESTION_KEEP = 0.9;

/**
 * What the tree editor's routes do with a draft document: check it (schema, `defineTree`, lint),
 * route a message through it (path, decisions, heat map), find a node's closest sibling chunks,
 * suggest thresholds from labelled utterances, and save it. Drafts are built with the callback
 * module's exports and routed by agents of their own, with the served agent's embedder and cache:
 * nothing here touches a session or the served tree (which dev's hot reload swaps after a save).
 */
export class TreeEditorService {
  readonly #source: TreeEditorSource;
  readonly #embedder: Embedder;
  readonly #drafts = new Map<string, Promise<Built>>();
  /** Whether the source's tree is editable, once read (a tree's file does not change kind). */
  #editable: boolean | null = null;
  readonly #vectors = new Map<string, Float32Array>();
  /** The file's versions on disk, for the pages following them (`GET /events`). */
  readonly versions: VersionFeed;

  constructor(source: TreeEditorSource, options: { versionPollMs?: number } = {}) {
    this.#source = source;
    this.versions = new VersionFeed(source, options.versionPollMs);
    this.#embedder = source.agentOptions.embedder ?? new HashedEmbedder();
  }

  async state(): Promise<EditorState> {
    const [file, callbacks, utterances] = await Promise.all([
      this.#source.read(),
      this.#source.callbackNames(),
      this.#source.utterances(),
    ]);
    return {
      path: file.path,
      version: file.version,
      document: file.document,
      callbacks,
      editable: file.editable,
      readOnlyReason: file.readOnlyReason,
      utterances: utterances.length,
    };
  }

  version(): Promise<string> {
    return this.#source.version();
  }

  async check(document: TreeDocument): Promise<EditorCheckResponse> {
    const built = await this.#build(document);
    if (!built.draft) return { valid: false, problems: built.problems, lint: [], tree: null };
    const { tree } = built.draft;
    const lint = await lintTree(tree, {
      embedder: this.#embedder,
      ...(this.#source.agentOptions.embeddingCache
        ? { embeddingCache: this.#source.agentOptions.embeddingCache }
        : {}),
    });
    return {
      valid: true,
      problems: [],
      lint: lint.map(({ code, nodeId, message, fix }) => ({ code, nodeId, message, fix })),
      tree: describeTree(tree, { chunks: true }),
    };
  }

  /** The route of `text` through a valid draft, or its problems. */
  async route(document: TreeDocument, text: string): Promise<EditorRouteResponse | EditorProblem[]> {
    const built = await this.#build(document);
    if (!built.draft) return built.problems;
    const { tree, agent } = built.draft;
    const result = await agent.route(text);
    const [message] = await this.#embed([text]);
    const chunks = tree.chunks;
    const vectors = await this.#embed(chunks.map((chunk) => chunk.text));
    const best = new Map<number, { similarity: number; chunk: string }>();
    chunks.forEach((chunk, index) => {
      const similarity = dot(message!, vectors[index]!);
      const current = best.get(chunk.nodeId);
      if (!current || similarity > current.similarity)
        best.set(chunk.nodeId, { similarity, chunk: chunk.text });
    });
    return {
      route: {
        nodeId: result.node.id,
        nodeType: result.node.type,
        nodeName: result.node.name ?? null,
        noMatch: result.noMatch,
        decisions: result.decisions,
      },
      passedThrough: result.passedThrough,
      heat: [...best].map(([nodeId, value]) => ({
        nodeId,
        similarity: round(value.similarity),
        chunk: value.chunk,
      })),
    };
  }

  /** The chunks of `nodeId` closest to chunks of its siblings' subtrees: where routing may hesitate. */
  async ambiguity(
    document: TreeDocument,
    nodeId: number,
  ): Promise<EditorAmbiguityResponse | EditorProblem[]> {
    const built = await this.#build(document);
    if (!built.draft) return built.problems;
    const { tree } = built.draft;
    if (!tree.has(nodeId))
      return [
        {
          nodeId,
          message: `there is no node ${nodeId} in the effective tree.`,
          fix: 'Pick a node of the tree.',
        },
      ];
    const node = tree.node(nodeId);
    const own = tree.chunks.slice(node.chunkStart, node.chunkEnd);
    if (node.parentId === null || !own.length) return { nodeId, pairs: [] };
    const siblings = tree.node(node.parentId).children.filter((id) => id !== nodeId);
    const others = siblings.flatMap((id) => {
      const sibling = tree.node(id);
      return tree.chunks.slice(sibling.chunkStart, sibling.chunkEnd).map((chunk) => ({ chunk, sibling: id }));
    });
    const [ownVectors, otherVectors] = await Promise.all([
      this.#embed(own.map((chunk) => chunk.text)),
      this.#embed(others.map((other) => other.chunk.text)),
    ]);
    const pairs = own.flatMap((chunk, i) =>
      others.map((other, j) => ({
        chunk: chunk.text,
        otherNodeId: other.sibling,
        otherChunk: other.chunk.text,
        similarity: round(dot(ownVectors[i]!, otherVectors[j]!)),
      })),
    );
    pairs.sort((a, b) => b.similarity - a.similarity);
    return { nodeId, pairs: pairs.slice(0, AMBIGUOUS_PAIRS) };
  }

  /** `treeagent eval`'s threshold suggestions for a valid draft, from the source's labelled utterances. */
  async suggestions(document: TreeDocument): Promise<EditorSuggestionsResponse | EditorProblem[]> {
    const built = await this.#build(document);
    if (!built.draft) return built.problems;
    const utterances = await this.#source.utterances();
    if (!utterances.length) return { utterances: 0, accuracy: 0, suggestions: [] };
    const { tree, agent } = built.draft;
    const report = await evaluateRouting(tree, agent, utterances, { keep: SUGGESTION_KEEP });
    return {
      utterances: utterances.length,
      accuracy: report.accuracy,
      suggestions: report.thresholds.map((suggestion) => ({
        nodeId: suggestion.nodeId,
        name: suggestion.name ?? null,
        current: suggestion.current,
        currentSource: suggestion.currentSource,
        suggested: suggestion.suggested,
        reason: suggestion.reason ?? null,
        shouldDescend: suggestion.shouldDescend,
        shouldStop: suggestion.shouldStop,
        descendKept: suggestion.descendKept,
        stopRecall: suggestion.stopRecall,
      })),
    };
  }

  /**
   * Chunks suggested for a node of a valid draft, with the routing eval's change (`suggestChunks`):
   * the source's model writes them, else they come from `unmatched` (the analytics' unmatched
   * messages). Problems when the draft does not build or has no such node.
   */
  async chunkSuggestions(
    document: TreeDocument,
    nodeId: number,
    unmatched: () => Promise<{ message: string; count: number }[]>,
  ): Promise<EditorChunkSuggestionsResponse | EditorProblem[]> {
    const built = await this.#build(document);
    if (!built.draft) return built.problems;
    if (!document.nodes.some((node) => node.id === nodeId))
      return [
        {
          message: `There is no node ${nodeId} in the draft.`,
          fix: 'Select a node of the tree and ask again.',
        },
      ];
    const utterances = await this.#source.utterances();
    return suggestChunks(document, nodeId, {
      model: this.#source.suggestionModel ?? null,
      unmatched,
      embed: (texts) => this.#embed(texts),
      evaluate: async (draft) => {
        if (!utterances.length) return null;
        const next = await this.#build(draft);
        if (!next.draft) return null;
        return evaluateRouting(next.draft.tree, next.draft.agent, utterances, { keep: SUGGESTION_KEEP });
      },
    });
  }

  /**
   * Saves a valid draft; resolves to its problems when it is not valid (nothing is written then).
   * `author` (`admin:<id>`, `editor`) is passed to the source, which records it with the version.
   */
  async save(
    document: TreeDocument,
    baseVersion: string,
    force: boolean,
    author?: string,
  ): Promise<{ version: string; path: string } | EditorProblem[]> {
    const built = await this.#build(document);
    if (!built.draft) return built.problems;
    const version = await this.#source.write(document, baseVersion, { force, ...(author ? { author } : {}) });
    this.versions.publish(version);
    return { version, path: (await this.#source.read()).path };
  }

  #build(document: TreeDocument): Promise<Built> {
    const key = createHash('sha256').update(formatTreeDocument(document)).digest('hex');
    const cached = this.#drafts.get(key);
    if (cached) {
      this.#drafts.delete(key);
      this.#drafts.set(key, cached);
      return cached;
    }
    const built = this.#buildNew(document);
    this.#drafts.set(key, built);
    while (this.#drafts.size > DRAFTS_KEPT) this.#drafts.delete(this.#drafts.keys().next().value!);
    return built;
  }

  async #buildNew(document: TreeDocument): Promise<Built> {
    const shape = validateTreeDocument(document);
    if (shape.length) return { draft: null, problems: shape.map(problem) };
    try {
      // A read-only tree (defined in code) builds as it is loaded: a draft that differs from it
      // would be checked and routed as something it is not. An editable one is not read again.
      const file = this.#editable ? null : await this.#source.read();
      if (file) this.#editable = file.editable;
      if (file && !file.editable && formatTreeDocument(document) !== formatTreeDocument(file.document))
        return {
          draft: null,
          problems: [
            {
              message: 'The draft differs from the tree, which is read-only here: it is not checked.',
              fix: file.readOnlyReason ?? 'Edit the tree where it is defined.',
            },
          ],
        };
      const tree = await this.#source.build(document);
      const agent = new TreeAgent({ tree, ...this.#source.agentOptions });
      return { draft: { tree, agent }, problems: [] };
    } catch (error) {
      return { draft: null, problems: buildProblems(error) };
    }
  }

  /** Unit vectors of `texts`, kept by text (chunks are re-embedded only when their text changes). */
  async #embed(texts: readonly string[]): Promise<Float32Array[]> {
    const missing = [...new Set(texts.filter((text) => !this.#vectors.has(text)))];
    if (missing.length) {
      const vectors = await this.#embedder.embed(missing);
      missing.forEach((text, index) => {
        this.#vectors.set(text, unit(vectors[index]!));
      });
      while (this.#vectors.size > VECTORS_KEPT) this.#vectors.delete(this.#vectors.keys().next().value!);
    }
    return texts.map((text) => this.#vectors.get(text)!);
  }
}

/**
 * Why a draft did not build, as listed problems (never a 500): the tree's problems, or the callback
 * module's — refused, missing, or failing to load — with the source's fix when it gives one.
 */
function buildProblems(error: unknown): EditorProblem[] {
  // A TreeValidationError (its `isInstance` is TreeAgentError's: any Tree Agent error passes it).
  const { problems } = error as Partial<TreeValidationError>;
  if (TreeAgentError.hasCode(error, 'TREE_VALIDATION') && Array.isArray(problems))
    return problems.map(problem);
  const fix =
    (TreeAgentError.isInstance(error) ? (error.details as { fix?: unknown }).fix : undefined) ?? null;
  return [
    {
      ...(TreeAgentError.isInstance(error) && error.nodeId !== undefined ? { nodeId: error.nodeId } : {}),
      message: error instanceof Error ? error.message : `The draft could not be built: ${String(error)}`,
      fix: typeof fix === 'string' ? fix : 'Fix the callback module or the node named above.',
    },
  ];
}

function problem(item: { nodeId?: number | undefined; message: string; fix: string }): EditorProblem {
  return {
    ...(item.nodeId === undefined ? {} : { nodeId: item.nodeId }),
    message: item.message,
    fix: item.fix,
  };
}

function unit(vector: Float32Array | readonly number[]): Float32Array {
  const out = Float32Array.from(vector);
  let sum = 0;
  for (const value of out) sum += value * value;
  const length = Math.sqrt(sum) || 1;
  for (let i = 0; i < out.length; i++) out[i]! /= length;
  return out;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
