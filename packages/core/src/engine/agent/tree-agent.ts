import { defaultEmbedderFor } from '../../embedding/default-embedder.js';
import { embedTexts } from '../../embedding/embed-texts.js';
import type { Embedder } from '../../embedding/embedder.js';
import { type EmbeddingCache, InMemoryEmbeddingCache } from '../../embedding/embedding-cache.js';
import { RecentEmbeddingCache } from '../../embedding/recent-embedding-cache.js';
import { summarizeError } from '../../errors/summarize-error.js';
import { TreeAgentError } from '../../errors/tree-agent-error.js';
import { type RoutingThreshold, routingThresholds } from '../../explore/routing-thresholds.js';
import type { FileStore } from '../../files/file-store.js';
import { InMemoryFileStore } from '../../files/in-memory-file-store.js';
import { eldLanguageDetector } from '../../model/eld-language-detector.js';
import type { LanguageModel } from '../../model/language-model.js';
import { Redactor } from '../../privacy/redactor.js';
import type { AgentEvent, AgentOutput } from '../../protocol/events.js';
import type { HistoryEntry } from '../../protocol/history-entry.js';
import { InMemorySessionStore } from '../../session/in-memory-session-store.js';
import { KeyedMutex } from '../../session/keyed-mutex.js';
import {
  emptySessionRecord,
  type HistoryQuery,
  type SessionRecord,
  type SessionStore,
} from '../../session/session-store.js';
import { matchLanguage } from '../../tree/localized-text.js';
import type { Tree } from '../../tree/tree.js';
import { InMemoryVectorStore } from '../../vector/in-memory-vector-store.js';
import type { VectorStore } from '../../vector/vector-store.js';
import { RuntimeHost } from '../runtime/runtime-host.js';
import type { SpaceStatus } from '../runtime/space-fitter.js';
import { runTurn } from '../turn/run-turn.js';
import { EventChannel } from './event-channel.js';
import { type HandoffAction, type HandoffUpdate, runHandoffAction } from './handoff-actions.js';
import { LoadedTrees } from './loaded-trees.js';
import { type NearestNode, nearestNodes, type WeightedText } from './nearest-nodes.js';
import { type RouteOptions, type RouteResult, routeIn, routeText } from './route.js';
import { routingRuntime } from './routing-runtime.js';
import { checkSendInput } from './send-input.js';
import {
  DEFAULT_MAX_LOADED_TREE_BYTES,
  DEFAULT_MAX_LOADED_TREES,
  type SessionTrees,
} from './session-trees.js';
import {
  DEFAULT_CALLBACK_TIMEOUT_MS,
  DEFAULT_MODEL_TIMEOUT_MS,
  type SendOptions,
  type TreeAgentOptions,
} from './tree-agent-options.js';

export {
  DEFAULT_CALLBACK_TIMEOUT_MS,
  DEFAULT_MODEL_TIMEOUT_MS,
  type SendOptions,
  type TreeAgentOptions,
} from './tree-agent-options.js';

import { DEFAULT_MODEL_HELP, type MissingModelPolicy } from '../runtime/missing-models.js';

export type { RoutingThreshold };

/**
 * A tree agent: talks to many users at once, one session each.
 *
 * @example
 * const agent = new TreeAgent({ tree });
 * const output = await agent.send('session-1', 'Ciao!');
 * console.log(output.messages[0]?.content);
 */
export class TreeAgent {
  readonly sessionStore: SessionStore;
  /** The redaction of what is stored, or `null` (option `redaction`): servers apply it to their logs too. */
  readonly redactor: Redactor | null;
  readonly fileStore: FileStore;
  readonly #embedder: Embedder;
  readonly #embeddingCache: EmbeddingCache;
  readonly #vectorStore: VectorStore;
  /** Loads, fits and swaps the runtime turns run on. */
  readonly #host: RuntimeHost;
  /** Turns of one session run one after the other; of different sessions, concurrently. */
  readonly #mutex = new KeyedMutex();
  readonly #turnFacts: boolean;
  readonly #sessionTrees: SessionTrees | null;
  /** Runtimes of the other trees sessions run on (`sessionTrees`), bounded, unloaded when unused. */
  readonly #otherTrees: LoadedTrees;

  constructor(options: TreeAgentOptions) {
    this.redactor =
      options.redaction === undefined
        ? null
        : options.redaction instanceof Redactor
          ? options.redaction
          : new Redactor(options.redaction);
    this.#embedder = options.embedder ?? defaultEmbedderFor(options.tree, options.language);
    this.#embeddingCache = options.embeddingCache ?? new InMemoryEmbeddingCache();
    const messageEmbeddings = options.messageEmbeddings ?? 'memory';
    if (messageEmbeddings !== 'memory' && messageEmbeddings !== 'embedding-cache')
      throw new TreeAgentError(
        'INVALID_INPUT',
        `messageEmbeddings must be 'memory' or 'embedding-cache', got ${JSON.stringify(messageEmbeddings)}.`,
      );
    const messageCache =
      messageEmbeddings === 'memory' ? new RecentEmbeddingCache(this.#embeddingCache) : this.#embeddingCache;
    this.sessionStore = options.sessionStore ?? new InMemorySessionStore();
    this.#vectorStore = options.vectorStore ?? new InMemoryVectorStore();
    this.fileStore = options.fileStore ?? new InMemoryFileStore();
    const models = options.models;
    this.#turnFacts = options.turnFacts ?? true;
    this.#sessionTrees = options.sessionTrees ?? null;
    this.#host = new RuntimeHost({
      tree: options.tree,
      embedder: this.#embedder,
      defaultEmbedder: options.embedder === undefined,
      embeddingCache: this.#embeddingCache,
      messageCache,
      vectorStore: this.#vectorStore,
      fileStore: this.fileStore,
      models: !models ? {} : isLanguageModel(models) ? { default: models } : { ...models },
      missingModels: missingModelPolicy(options),
      limits: {
        maxSteps: options.maxSteps ?? 50,
        maxFallbacks: options.maxFallbacks ?? 3,
        callbackTimeoutMs: options.callbackTimeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS,
        modelTimeoutMs: options.modelTimeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS,
      },
      now: options.now ?? (() => new Date()),
      languageDetector: options.languageDetector ?? eldLanguageDetector,
      exploreIn: options.exploreIn ?? 'memory',
      exploreScan: options.exploreScan ?? 'auto',
      exploreThreads: options.exploreThreads ?? 'auto',
      indexDirectory:
        options.indexDirectory === false
          ? undefined
          : (options.indexDirectory ?? this.#embeddingCache.indexDirectory),
      calibrateThresholds: options.calibrateThresholds,
      fit: options.fit ?? 'auto',
      spaceFitter: options.spaceFitter,
      log:
        options.log ??
        ((level, message) => {
          if (level === 'warn') console.warn(message);
        }),
    });
    this.#otherTrees = new LoadedTrees((tree) => new RuntimeHost({ ...this.#host.options, tree }), {
      maxTrees: Math.max(0, options.maxLoadedTrees ?? DEFAULT_MAX_LOADED_TREES),
      maxBytes: Math.max(0, options.maxLoadedTreeBytes ?? DEFAULT_MAX_LOADED_TREE_BYTES),
    });
  }

  /** The store of query nodes' collections (what `ingestDocuments` and knowledge sources write to). */
  get vectorStore(): VectorStore {
    return this.#vectorStore;
  }

  /** The embedder documents are embedded with, so ingested chunks and retrieval agree. */
  get embedder(): Embedder {
    return this.#embedder;
  }

  /** The embedding cache chunks are embedded through. */
  get embeddingCache(): EmbeddingCache {
    return this.#embeddingCache;
  }

  get tree(): Tree {
    return this.#host.tree;
  }

  /** Embeds the tree's chunks and indexes the query nodes' chunks. Called by the first message if not before. */
  async ready(): Promise<void> {
    await this.#host.load();
  }

  /** Swaps the tree (for example after its files changed). Sessions are kept; turns in progress finish on the old tree. */
  setTree(tree: Tree): Promise<void> {
    return this.#host.setTree(tree);
  }

  /**
   * Where the embedding space stands: `fitting` while a fit runs in the background, `fitted` once
   * routing uses it, `failed` (the unfitted space keeps serving), or `unfitted` and why
   * (`TreeAgentOptions.fit`). Before the tree is loaded: `unfitted`, "not loaded yet".
   */
  space(): SpaceStatus {
    return this.#host.space();
  }

  /**
   * Loads the tree, waits for the background fit (if any) to be used or to fail, and returns the
   * space status. The wait keeps the process alive; a fit nobody waits for does not.
   */
  whenFitted(): Promise<SpaceStatus> {
    return this.#host.whenFitted();
  }

  /** Sends a user message and returns the agent's answer. Throws a `TreeAgentError` when the turn fails; nothing is saved then. */
  async send(sessionId: string, message: string, options: SendOptions = {}): Promise<AgentOutput> {
    return this.#run(sessionId, message, options, () => {});
  }

  /**
   * Sends a user message and yields the turn's events as they happen (text deltas included).
   * The last event is `turn-end` with the output, or `error`. Stopping the iteration cancels the turn.
   */
  stream(sessionId: string, message: string, options: SendOptions = {}): AsyncIterable<AgentEvent> {
    const controller = new AbortController();
    const channel = new EventChannel<AgentEvent>(() =>
      controller.abort(new Error('stream consumer stopped')),
    );
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    this.#run(sessionId, message, { ...options, signal }, (event) => channel.push(event)).then(
      () => channel.close(),
      () => channel.close(),
    );
    return channel;
  }

  /**
   * Where `send` would take `text` on a fresh session (from the primary agent, or `startNodeId`), with
   * each decision: the explore step, and the climbs from `empty` and `switch` nodes without callbacks.
   * No callback runs and no session changes. `thresholds` routes as if the routing nodes had them.
   */
  async route(text: string, options: RouteOptions | number = {}): Promise<RouteResult> {
    return routeText(
      await this.#host.load(),
      text,
      typeof options === 'number' ? { startNodeId: options } : options,
    );
  }

  /**
   * The threshold of every routing node as exploration uses it, with where it comes from
   * (`calibrated` ones with what they were computed from). Loads the tree if needed.
   */
  async thresholds(): Promise<RoutingThreshold[]> {
    const runtime = await this.#host.load();
    return routingThresholds(runtime.tree, runtime.calibrations);
  }

  /**
   * Unit vectors of `texts` from the agent's embedder, without the embedding cache (the texts may be
   * users' messages, which the cache must not keep): how analytics clusters unmatched messages
   * (docs/analytics.md).
   */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const runtime = await this.#host.load();
    return embedTexts(runtime.embedder, texts);
  }

  /**
   * The `limit` nodes nearest to a group of messages: each node's best chunk against the messages'
   * centroid (their weighted mean, in the exploration space, without the embedding cache), most
   * similar first. How analytics shows where a cluster of unmatched messages belongs
   * (docs/analytics.md).
   *
   * @example
   * const nearest = await agent.nearestNodes([{ text: 'dove parcheggio?', weight: 3 }, { text: 'parcheggio bici' }]);
   */
  async nearestNodes(texts: readonly WeightedText[], limit = 3): Promise<NearestNode[]> {
    return nearestNodes(await this.#host.load(), texts, limit);
  }

  /** The history of a session, oldest first. */
  history(sessionId: string, query?: HistoryQuery): Promise<HistoryEntry[]> {
    return this.sessionStore.history(sessionId, query);
  }

  /**
   * Starts a session over: its history, state and position are deleted, so the next message is a
   * first interaction. Waits for a turn in progress on the session (in this process, and in others
   * through the store's `lock`). Its files are kept (`deleteSession` removes them too).
   */
  /**
   * The session's record as stored (state, position, fail counter, handoff), or `null` for a session
   * that never committed: what an operator console shows beside the transcript.
   */
  inspectSession(sessionId: string): Promise<SessionRecord | null> {
    return this.sessionStore.load(sessionId);
  }

  /**
   * An operator's action on a handed-off session (docs/concepts.md §11): claim or release it, write to
   * its user, or hand it back to the agent (`end`, optionally at a node, with the rules of an `after`
   * output's `nodeTarget`). Serialised with the session's turns and committed atomically with its
   * history row; an action that does not fit the handoff (not handed off, claimed by another
   * operator) is a `HANDOFF` error and changes nothing.
   *
   * @example
   * await agent.handoffAction('s1', { type: 'claim', operator: { id: 'anna', name: 'Anna' } });
   * await agent.handoffAction('s1', { type: 'reply', operator, reply: { content: 'Ciao, sono Anna.' } });
   * await agent.handoffAction('s1', { type: 'end', operator, outcome: 'handed-back', target: { nodeTarget: 40 } });
   */
  async handoffAction(sessionId: string, action: HandoffAction): Promise<HandoffUpdate> {
    checkSendInput(sessionId, '', {});
    const runtime = await this.#host.load();
    return this.#mutex.run(sessionId, () =>
      runHandoffAction(this.sessionStore, runtime, sessionId, action, this.redactor),
    );
  }

  /**
   * Fixes a session's language from the client's locale — the page's or the widget's, `it-IT`
   * (docs/multilingual-trees.md): the tree's language that matches it (the same code, else the same
   * primary language) is stored in the session and every text the agent sends is in it. Returns that
   * language, or `null` when the tree speaks none that matches (or declares no `languages`): nothing
   * is stored, and the language is detected from the first message. Call it when the session starts;
   * a later call changes the language of the rest of the conversation.
   *
   * @example
   * await agent.setSessionLanguage('s1', 'en-GB'); // 'en' for a tree with languages: ['it', 'en']
   */
  async setSessionLanguage(sessionId: string, locale: string): Promise<string | null> {
    checkSendInput(sessionId, '', {});
    if (typeof locale !== 'string' || !LOCALE_PATTERN.test(locale))
      throw new TreeAgentError(
        'INVALID_INPUT',
        `Invalid locale ${JSON.stringify(locale)}: give a language code such as "it", "en" or "it-IT".`,
      );
    const runtime = await this.#host.load();
    const language = matchLanguage(locale, runtime.tree.languages);
    if (language === null) return null;
    await this.#exclusive(sessionId, async () => {
      const now = runtime.now().toISOString();
      const record = (await this.sessionStore.load(sessionId)) ?? emptySessionRecord(sessionId, now);
      if (record.language === language) return;
      await this.sessionStore.commit({
        record: { ...record, language, version: record.version + 1, updatedAt: now },
        history: [],
        expectedVersion: record.version,
      });
    });
    return language;
  }

  async resetSession(sessionId: string): Promise<void> {
    await this.#exclusive(sessionId, () => this.sessionStore.delete(sessionId));
  }

  /**
   * Deletes a session: history, state, position, and its files when the file store can list them
   * (`FileStore.deleteSession`). Waits for a turn in progress on the session, like `resetSession`.
   */
  async deleteSession(sessionId: string): Promise<void> {
    await this.#exclusive(sessionId, async () => {
      await this.sessionStore.delete(sessionId);
      await this.fileStore.deleteSession?.(sessionId);
      await this.#forgetSessions([sessionId]);
    });
  }

  /**
   * Deletes several sessions at once (one user's data on request, docs/privacy.md): waits for the
   * turns in progress on each in this process, then deletes their records, histories and turn facts
   * in one store transaction (`SessionStore.deleteSessions`, else one `delete` each), then their
   * files. A turn running meanwhile in another process fails its commit (the version check) and
   * saves nothing.
   */
  async deleteSessions(sessionIds: readonly string[]): Promise<void> {
    const ids = [...new Set(sessionIds)].sort();
    // The sessions are taken in one order (sorted), so two callers never wait for each other. The
    // store's cross-process locks are not taken: a user may have more sessions than lock connections.
    const holding = async (index: number): Promise<void> => {
      if (index < ids.length) return this.#mutex.run(ids[index]!, () => holding(index + 1));
      if (this.sessionStore.deleteSessions) await this.sessionStore.deleteSessions(ids);
      else for (const id of ids) await this.sessionStore.delete(id);
      for (const id of ids) await this.fileStore.deleteSession?.(id);
      await this.#forgetSessions(ids);
    };
    await holding(0);
  }

  /** Runs `task` while no turn runs on the session, in this process or another one sharing the store. */
  #exclusive(sessionId: string, task: () => Promise<void>): Promise<void> {
    return this.#mutex.run(sessionId, async () => {
      const release = this.sessionStore.lock ? await this.sessionStore.lock(sessionId) : null;
      try {
        await task();
      } finally {
        await release?.();
      }
    });
  }

  /**
   * The content hashes of the trees loaded besides the agent's own for `sessionTrees` (sessions on
   * an earlier version, experiment variants), least recently used first: at most `maxLoadedTrees`,
   * and only while a session not deleted since ran its last turn there.
   */
  loadedTrees(): string[] {
    return this.#otherTrees.list();
  }

  /** The estimated memory of the trees `loadedTrees` lists, in bytes (bounded by `maxLoadedTreeBytes`). */
  loadedTreeBytes(): number {
    return this.#otherTrees.bytes();
  }

  /** The sessions were deleted: their trees are unloaded when no session uses them, their versions forgotten. */
  async #forgetSessions(sessionIds: readonly string[]): Promise<void> {
    this.#otherTrees.forget(sessionIds);
    await this.#sessionTrees?.forget?.(sessionIds);
  }

  async #run(
    sessionId: string,
    message: string,
    options: SendOptions,
    sink: (event: AgentEvent) => void,
  ): Promise<AgentOutput> {
    try {
      const checked = checkSendInput(sessionId, message, options);
      // What the live turn sees: a copy with the detectors not kept for it redacted, before anything runs.
      const input = this.redactor
        ? { ...checked, message: this.redactor.redactLive(checked.message).text }
        : checked;
      const recording = { redactor: this.redactor, facts: this.#turnFacts };
      return await this.#mutex.run(sessionId, async () => {
        const tree = this.#sessionTrees
          ? await this.#sessionTrees.treeFor(sessionId, { userId: options.userId ?? null })
          : null;
        if (!tree || tree.contentHash === this.#host.tree.contentHash) {
          this.#otherTrees.leave(sessionId);
          // A cascade routes an unsure message in its second space (`routingRuntime`).
          const { runtime } = await routingRuntime(await this.#host.load(), input.message, routeIn);
          return runTurn(runtime, this.sessionStore, sessionId, input, sink, recording);
        }
        return this.#otherTrees.run(tree, sessionId, async (runtime) =>
          runTurn(
            (await routingRuntime(runtime, input.message, routeIn)).runtime,
            this.sessionStore,
            sessionId,
            input,
            sink,
            recording,
          ),
        );
      });
    } catch (error) {
      const event: AgentEvent = { type: 'error', error: summarizeError(error) };
      sink(event);
      if (TreeAgentError.isInstance(error)) error.events = [...(error.events ?? []), event];
      throw error;
    }
  }
}

/** A locale as clients send it: `it`, `en-GB`, `pt_BR` (BCP 47, or with an underscore). */
const LOCALE_PATTERN = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/;

function isLanguageModel(value: unknown): value is LanguageModel {
  const model = value as Partial<LanguageModel>;
  return typeof model.generate === 'function' && typeof model.stream === 'function';
}

/** `missingModels` and `modelHelp`, checked. */
function missingModelPolicy(options: TreeAgentOptions): MissingModelPolicy {
  const mode = options.missingModels ?? 'fail';
  if (mode !== 'fail' && mode !== 'notice')
    throw new TreeAgentError(
      'INVALID_INPUT',
      `missingModels must be 'fail' or 'notice', got ${JSON.stringify(mode)}.`,
    );
  return { mode, help: options.modelHelp ?? DEFAULT_MODEL_HELP };
}
