import { embedTexts } from '../embedding/embed-texts.js';
import type { Embedder } from '../embedding/embedder.js';
import { type EmbeddingCache, InMemoryEmbeddingCache } from '../embedding/embedding-cache.js';
import { HashedEmbedder } from '../embedding/hashed-embedder.js';
import { RecentEmbeddingCache } from '../embedding/recent-embedding-cache.js';
import { summarizeError } from '../errors/summarize-error.js';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { CalibrationOptions } from '../explore/calibrate-thresholds.js';
import type { ExploreScan, ExploreThreads } from '../explore/chunk-index.js';
import { type RoutingThreshold, routingThresholds } from '../explore/routing-thresholds.js';
import type { FileStore } from '../files/file-store.js';
import { InMemoryFileStore } from '../files/in-memory-file-store.js';
import { handoffEventsOf } from '../handoff/handoff-events.js';
import type { LanguageModel } from '../model/language-model.js';
import { type RedactionOptions, Redactor } from '../privacy/redactor.js';
import type { InboundReceipt } from '../protocol/channel.js';
import type { AgentEvent, AgentOutput } from '../protocol/events.js';
import type { FileMetadata } from '../protocol/file-metadata.js';
import type { HistoryEntry } from '../protocol/history-entry.js';
import { InMemorySessionStore } from '../session/in-memory-session-store.js';
import { KeyedMutex } from '../session/keyed-mutex.js';
import type { HistoryQuery, SessionRecord, SessionStore } from '../session/session-store.js';
import type { Tree } from '../tree/tree.js';
import { InMemoryVectorStore } from '../vector/in-memory-vector-store.js';
import type { VectorStore } from '../vector/vector-store.js';
import { EventChannel } from './event-channel.js';
import { fitBlocker, NO_SPACE_FITTER } from './fit-plan.js';
import { applyHandoffAction, type HandoffAction, type HandoffUpdate } from './handoff-actions.js';
import { type ExploreIn, loadRuntime } from './load-runtime.js';
import { type NearestNode, nearestNodes, type WeightedText } from './nearest-nodes.js';
import { type RouteOptions, type RouteResult, routeText } from './route.js';
import { runTurn } from './run-turn.js';
import type { AgentRuntime } from './runtime.js';
import { checkSendInput } from './send-input.js';
import type { FitMode, FittedSpace, SpaceFitter, SpaceStatus } from './space-fitter.js';

/** Default `callbackTimeoutMs`: 30 s. */
export const DEFAULT_CALLBACK_TIMEOUT_MS = 30_000;
/** Default `modelTimeoutMs`: 120 s. */
export const DEFAULT_MODEL_TIMEOUT_MS = 120_000;

export interface TreeAgentOptions {
  tree: Tree;
  /** Embeds chunks and directions. Default: the offline `HashedEmbedder`. */
  embedder?: Embedder;
  /** Where chunk embeddings are cached by model id and text. Default: in memory. */
  embeddingCache?: EmbeddingCache;
  /**
   * Where the vectors of what turns embed (messages, directions, retrieval queries) are cached:
   * `'memory'` (default) keeps the most recent `RECENT_EMBEDDINGS_DEFAULT` in process memory, read
   * through to `embeddingCache` but never written to it — a turn writes nothing for its embedding,
   * and users' messages leave no vectors in the cache's file or table; `'embedding-cache'` writes
   * them to `embeddingCache` like chunks (a message seen again after a restart is not re-embedded).
   * docs/deployment.md, "Large knowledge bases".
   */
  messageEmbeddings?: 'memory' | 'embedding-cache';
  /** Where sessions live. Default: in memory (lost on exit). */
  sessionStore?: SessionStore;
  /** Where query nodes search their `forRag` chunks. Default: in memory. */
  vectorStore?: VectorStore;
  /** Where the conversation's files live (attachments, files made in code). Default: in memory. */
  fileStore?: FileStore;
  /** A language model, or models by name (`default` for nodes that name none). */
  models?: LanguageModel | Record<string, LanguageModel>;
  /** Nodes one turn may execute before `LOOP`. Default 50. */
  maxSteps?: number;
  /** Fallbacks one turn may run before the error is returned. Default 3. */
  maxFallbacks?: number;
  /**
   * Longest an async author callback (`before`, `after`, `emit`, `prompt`, `query`, `fallback`,
   * `beforeRun`, …) may take, in milliseconds. Past it the turn raises `TIMEOUT` naming the node and
   * the callback, handled like any callback error (the agent's `fallback`, else the turn fails and
   * nothing is saved). The late callback is abandoned, not stopped. 0 disables. Default 30 000.
   */
  callbackTimeoutMs?: number;
  /**
   * Longest one language model call may take, in milliseconds (for a stream: until its last part).
   * Past it the call's `signal` is aborted and the turn raises `TIMEOUT` on the node. 0 disables.
   * Default 120 000.
   */
  modelTimeoutMs?: number;
  /**
   * Where exploration searches the tree's chunks: `memory` (default; one matrix, fastest) or
   * `vector-store` (every chunk in the vector store with its path in the payload; for trees too large
   * for memory, or to share one index between processes).
   */
  exploreIn?: ExploreIn;
  /**
   * How in-memory exploration reads the chunk vectors (`exploreIn: 'memory'`): `exact` scores every
   * chunk in float32 once per direction; `sign-bits` ranks a node's chunks by one sign bit per
   * dimension and rescores the nearest few hundred exactly in float32 (dense vectors only); `auto`
   * (default) uses sign bits from `SIGN_SCAN_FROM` (5,000) chunks on (docs/architecture.md, "Large trees").
   */
  exploreScan?: ExploreScan;
  /**
   * Threads of the sign-bit pass (`exploreScan` with sign bits): `1`, `2` (a worker thread takes
   * about half the rows of each pass; it never keeps the process alive and is stopped when the
   * agent is collected; if it fails, one warning is logged and the pass runs on one thread with the
   * same results), or `auto` (default: 2 from 250,000 chunks on, on two processors or more;
   * docs/architecture.md, "Large trees").
   */
  exploreThreads?: ExploreThreads;
  /**
   * Where in-memory exploration keeps its packed index files (docs/architecture.md, "Packed index
   * files"): one file per tree content and embedder, written after the first load and read whole on
   * the next start instead of one cache lookup per chunk; from `ROWS_IN_FILE_FROM` (20,000) chunks on
   * (with sign bits) the float32 rows stay in the file and only a few per decision are read. A file that does not match the tree
   * is logged and ignored. Default: the embedding cache's `indexDirectory` (`index/` beside the
   * SQLite file of `openSqlite`, or in the `FileEmbeddingCache` directory); none for the in-memory
   * cache. `false`: never.
   */
  indexDirectory?: string | false;
  /**
   * Automatic `similarityThreshold` for every routing node without one set by hand (on the node or
   * as the root's `defaultSimilarityThreshold`): calibrated at load from the tree's own chunks, so
   * that out-of-scope messages reach the agent's fallback instead of the nearest node
   * (docs/routing.md). Options tune it; `false` keeps `DEFAULT_SIMILARITY_THRESHOLD`. Default on.
   */
  calibrateThresholds?: boolean | CalibrationOptions;
  /**
   * Personal data redaction (docs/privacy.md): e-mail addresses, phone numbers, IBANs, payment card
   * numbers, codici fiscali and your own patterns are replaced by `[name]` placeholders in everything
   * stored (history, turn facts) and, unless listed in `liveTurn`, in what the turn itself sees.
   * Default: no redaction.
   */
  redaction?: RedactionOptions | Redactor;
  /**
   * Record one analytics row per turn in the turn's own commit (docs/analytics.md), for stores that
   * keep them (SQLite, PostgreSQL). Default true.
   */
  turnFacts?: boolean;
  /**
   * Fits the embedding space to the tree at load (docs/routing.md, "Fitting at load"): the agent
   * serves in the unfitted space while the fit runs in the background (a worker thread), then
   * switches to the fitted space atomically, its calibrated thresholds computed again in it; a fit
   * that fails is logged and the unfitted space keeps serving. `'auto'` (default): the default
   * embedder, in memory, a tree of `AUTO_FIT_MIN_CHUNKS` exploration chunks or more; `true`: any
   * embedder and tree; `false`: never. Thresholds set by hand apply in the fitted space once it is
   * in place. `agent.space()` says where it stands.
   */
  fit?: FitMode;
  /**
   * What fits the space: `spaceFitter()` of `@treeagent/fit` (`spaceFitter({ cacheDirectory })` keeps
   * fits across restarts, as `treeagent dev` does in its data directory). Default: none, and the agent
   * stays unfitted whatever is installed (`agent.space()` says so); the `treeagent` CLI passes one.
   */
  spaceFitter?: SpaceFitter;
  /**
   * Lines about what the agent does in the background (the automatic fit: started, ready, failed).
   * Default: warnings on stderr (`console.warn`), information dropped.
   */
  log?: (level: 'info' | 'warn', message: string) => void;
  /** Clock, for deterministic tests. */
  now?: () => Date;
}

export type { RoutingThreshold };

/** What travels with a user message. */
export interface SendOptions {
  attachments?: FileMetadata[];
  /** Sent by the client; callbacks read it in `context.metadata.clientMetadata`. */
  clientMetadata?: Record<string, unknown>;
  /** The option the user picked among those of the last message. */
  selectedOption?: string;
  /** Cancels the turn; nothing is saved. */
  signal?: AbortSignal;
  /**
   * The platform's id of the update this message came in (a messaging channel, docs/channels.md).
   * It is recorded in the turn's commit; a turn whose receipt the store already holds fails with
   * `DUPLICATE_DELIVERY` and runs nothing, so a redelivered update never runs a turn twice.
   */
  inbound?: InboundReceipt;
}

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
  readonly #messageCache: EmbeddingCache;
  readonly #vectorStore: VectorStore;
  readonly #models: Record<string, LanguageModel>;
  readonly #mutex = new KeyedMutex();
  readonly #options: TreeAgentOptions;
  readonly #log: (level: 'info' | 'warn', message: string) => void;
  #tree: Tree;
  #runtime: Promise<AgentRuntime> | null = null;
  /** The load whose runtime is installed (its space status and background fit). */
  #installed: LoadJob | null = null;

  constructor(options: TreeAgentOptions) {
    this.#options = options;
    this.#tree = options.tree;
    this.redactor =
      options.redaction === undefined
        ? null
        : options.redaction instanceof Redactor
          ? options.redaction
          : new Redactor(options.redaction);
    this.#embedder = options.embedder ?? new HashedEmbedder();
    this.#embeddingCache = options.embeddingCache ?? new InMemoryEmbeddingCache();
    const messageEmbeddings = options.messageEmbeddings ?? 'memory';
    if (messageEmbeddings !== 'memory' && messageEmbeddings !== 'embedding-cache')
      throw new TreeAgentError(
        'INVALID_INPUT',
        `messageEmbeddings must be 'memory' or 'embedding-cache', got ${JSON.stringify(messageEmbeddings)}.`,
      );
    this.#messageCache =
      messageEmbeddings === 'memory' ? new RecentEmbeddingCache(this.#embeddingCache) : this.#embeddingCache;
    this.sessionStore = options.sessionStore ?? new InMemorySessionStore();
    this.#vectorStore = options.vectorStore ?? new InMemoryVectorStore();
    this.fileStore = options.fileStore ?? new InMemoryFileStore();
    const models = options.models;
    this.#models = !models ? {} : isLanguageModel(models) ? { default: models } : { ...models };
    this.#log =
      options.log ??
      ((level, message) => {
        if (level === 'warn') console.warn(message);
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
    return this.#tree;
  }

  /** Embeds the tree's chunks and indexes the query nodes' chunks. Called by the first message if not before. */
  async ready(): Promise<void> {
    await this.#load();
  }

  /** Swaps the tree (for example after its files changed). Sessions are kept; turns in progress finish on the old tree. */
  async setTree(tree: Tree): Promise<void> {
    const job = newLoadJob(tree);
    const next = this.#start(job);
    await next;
    this.#tree = tree;
    this.#runtime = next;
    this.#install(job);
  }

  /**
   * Where the embedding space stands: `fitting` while a fit runs in the background, `fitted` once
   * routing uses it, `failed` (the unfitted space keeps serving), or `unfitted` and why
   * (`TreeAgentOptions.fit`). Before the tree is loaded: `unfitted`, "not loaded yet".
   */
  space(): SpaceStatus {
    return (
      this.#installed?.status ?? {
        state: 'unfitted',
        embedderId: this.#embedder.id,
        reason: 'not loaded yet (ready() or the first message loads it)',
      }
    );
  }

  /**
   * Loads the tree, waits for the background fit (if any) to be used or to fail, and returns the
   * space status. The wait keeps the process alive; a fit nobody waits for does not.
   */
  async whenFitted(): Promise<SpaceStatus> {
    await this.#load();
    const keepAlive = setInterval(() => {}, 1 << 30);
    try {
      let job: LoadJob | null = null;
      // A setTree during the wait starts another load: wait for the one installed at the end.
      while (job !== this.#installed) {
        job = this.#installed;
        await job?.settled;
      }
    } finally {
      clearInterval(keepAlive);
    }
    return this.space();
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
      await this.#load(),
      text,
      typeof options === 'number' ? { startNodeId: options } : options,
    );
  }

  /**
   * The threshold of every routing node as exploration uses it, with where it comes from
   * (`calibrated` ones with what they were computed from). Loads the tree if needed.
   */
  async thresholds(): Promise<RoutingThreshold[]> {
    const runtime = await this.#load();
    return routingThresholds(runtime.tree, runtime.calibrations);
  }

  /**
   * Unit vectors of `texts` from the agent's embedder, without the embedding cache (the texts may be
   * users' messages, which the cache must not keep): how analytics clusters unmatched messages
   * (docs/analytics.md).
   */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const runtime = await this.#load();
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
    return nearestNodes(await this.#load(), texts, limit);
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
    const runtime = await this.#load();
    return this.#mutex.run(sessionId, async () => {
      const release = this.sessionStore.lock ? await this.sessionStore.lock(sessionId) : null;
      try {
        const record = await this.sessionStore.load(sessionId);
        const at = runtime.now().toISOString();
        const { record: next, update } = applyHandoffAction(record, sessionId, action, runtime.tree, at);
        if (next && record) {
          const handoffEvents = handoffEventsOf(sessionId, record.handoff, next.handoff, update.entries);
          await this.sessionStore.commit({
            record: next,
            history: update.entries,
            expectedVersion: record.version,
            ...(release ? { endsInteraction: true } : {}),
            ...(handoffEvents.length ? { handoffEvents } : {}),
          });
        }
        return update;
      } finally {
        await release?.();
      }
    });
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

  #load(): Promise<AgentRuntime> {
    if (!this.#runtime) {
      const job = newLoadJob(this.#tree);
      const promise = this.#start(job);
      this.#runtime = promise;
      this.#install(job);
      promise.catch(() => {
        if (this.#runtime === promise) this.#runtime = null;
      });
    }
    return this.#runtime;
  }

  /** Makes `job` the installed load: its status is the agent's, the previous load's fit is stopped. */
  #install(job: LoadJob): void {
    const previous = this.#installed;
    this.#installed = job;
    if (previous && previous !== job) {
      previous.controller.abort(new Error('the tree was replaced'));
      previous.resolveSettled();
    }
    job.resolveInstalled();
  }

  /**
   * Loads `job.tree`: in the fitted space at once when the fitter has this tree's fit cached; else in
   * the unfitted space, with the fit started in the background (`#fitInBackground`).
   */
  async #start(job: LoadJob): Promise<AgentRuntime> {
    const fitter = this.#fitterFor(job);
    if (fitter) {
      const request = this.#fitRequest(job);
      const cached = await fitter.cached(request).catch(() => null);
      if (cached) {
        const runtime = await this.#build(job.tree, cached);
        job.status = fittedStatus(this.#embedder, fitter, cached);
        job.resolveSettled();
        return runtime;
      }
    }
    const runtime = await this.#build(job.tree);
    if (fitter) void this.#fitInBackground(job, fitter);
    else job.resolveSettled();
    return runtime;
  }

  /** The fitter for this load, or `null` with the reason in the job's status. */
  #fitterFor(job: LoadJob): SpaceFitter | null {
    const unfitted = (reason: string) => {
      job.status = { state: 'unfitted', embedderId: this.#embedder.id, reason };
      return null;
    };
    const blocker = fitBlocker({
      mode: this.#options.fit ?? 'auto',
      tree: job.tree,
      defaultEmbedder: this.#options.embedder === undefined,
      exploreIn: this.#options.exploreIn ?? 'memory',
    });
    if (blocker) return unfitted(blocker);
    const fitter = this.#options.spaceFitter;
    if (!fitter) return unfitted(NO_SPACE_FITTER);
    const skip = fitter.skip?.(job.tree, this.#embedder) ?? null;
    return skip ? unfitted(skip) : fitter;
  }

  #fitRequest(job: LoadJob) {
    return {
      tree: job.tree,
      base: this.#embedder,
      baseIsDefault: this.#options.embedder === undefined,
      embeddingCache: this.#embeddingCache,
      signal: job.controller.signal,
    };
  }

  /**
   * Fits while the unfitted runtime serves; when the fit is ready and this load is still the
   * installed one, builds the fitted runtime (thresholds calibrated again in the fitted space) and
   * swaps it in: turns in progress finish on the runtime they started with. A failure is logged and
   * leaves the unfitted runtime serving.
   */
  async #fitInBackground(job: LoadJob, fitter: SpaceFitter): Promise<void> {
    const tree = job.tree;
    const started = performance.now();
    job.status = { state: 'fitting', embedderId: this.#embedder.id, fitter: fitter.id };
    try {
      const fitted = await fitter.fit(this.#fitRequest(job));
      const runtime = await this.#build(tree, fitted);
      await job.installed;
      if (job.controller.signal.aborted || this.#installed !== job) return;
      this.#runtime = Promise.resolve(runtime);
      job.status = fittedStatus(this.#embedder, fitter, fitted);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      this.#log(
        'info',
        `Tree Agent: routing tree "${tree.name}" in the fitted space (${fitted.cached ? 'from the cache' : `fitted in ${seconds} s`}${fitted.file ? `, ${fitted.file}` : ''}${fitted.detail ? `; ${fitted.detail}` : ''}${fitted.baseReason ? `; over ${fitted.baseReason}` : ''}); thresholds calibrated again in it.`,
      );
    } catch (error) {
      if (job.controller.signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      job.status = { state: 'failed', embedderId: this.#embedder.id, fitter: fitter.id, error: message };
      this.#log(
        'warn',
        `Tree Agent: fitting the embedding space to tree "${tree.name}" failed (${message}); still routing in the unfitted space (${this.#embedder.id}). It is retried at the next load; fit: false turns automatic fitting off.`,
      );
    } finally {
      job.resolveSettled();
    }
  }

  /** The runtime of `tree`, in the fitted space when one is given (else the embedder's). */
  #build(tree: Tree, fitted?: FittedSpace): Promise<AgentRuntime> {
    const calibrate = this.#options.calibrateThresholds;
    return loadRuntime({
      tree,
      embedder: this.#embedder,
      ...(fitted ? { exploreEmbedder: fitted.embedder } : {}),
      embeddingCache: this.#embeddingCache,
      messageCache: this.#messageCache,
      vectorStore: this.#vectorStore,
      fileStore: this.fileStore,
      models: this.#models,
      limits: {
        maxSteps: this.#options.maxSteps ?? 50,
        maxFallbacks: this.#options.maxFallbacks ?? 3,
        callbackTimeoutMs: this.#options.callbackTimeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS,
        modelTimeoutMs: this.#options.modelTimeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS,
      },
      now: this.#options.now ?? (() => new Date()),
      exploreIn: this.#options.exploreIn ?? 'memory',
      exploreScan: this.#options.exploreScan ?? 'auto',
      exploreThreads: this.#options.exploreThreads ?? 'auto',
      indexDirectory:
        this.#options.indexDirectory === false
          ? undefined
          : (this.#options.indexDirectory ?? this.#embeddingCache.indexDirectory),
      log: this.#log,
      // The fitter's advice for its space first; what the options set wins.
      calibration:
        calibrate === false
          ? false
          : { ...fitted?.calibration, ...(typeof calibrate === 'object' ? calibrate : {}) },
    });
  }

  async #run(
    sessionId: string,
    message: string,
    options: SendOptions,
    sink: (event: AgentEvent) => void,
  ): Promise<AgentOutput> {
    try {
      const input = checkSendInput(sessionId, message, options);
      // What the live turn sees: the detectors not kept for it are redacted before anything runs.
      if (this.redactor) input.message = this.redactor.redactLive(input.message).text;
      const recording = { redactor: this.redactor, facts: this.#options.turnFacts ?? true };
      return await this.#mutex.run(sessionId, async () => {
        const runtime = await this.#load();
        return runTurn(runtime, this.sessionStore, sessionId, input, sink, recording);
      });
    } catch (error) {
      const event: AgentEvent = { type: 'error', error: summarizeError(error) };
      sink(event);
      if (TreeAgentError.isInstance(error)) error.events = [...(error.events ?? []), event];
      throw error;
    }
  }
}

/** One load of a tree: its space status, its background fit and when that is settled. */
interface LoadJob {
  tree: Tree;
  controller: AbortController;
  status: SpaceStatus;
  /** Resolves when the runtime of this load is installed (`#install`). */
  installed: Promise<void>;
  resolveInstalled(): void;
  /** Resolves when the space of this load will not change any more (fitted, failed, unfitted, replaced). */
  settled: Promise<void>;
  resolveSettled(): void;
}

function newLoadJob(tree: Tree): LoadJob {
  let resolveInstalled = () => {};
  let resolveSettled = () => {};
  const installed = new Promise<void>((resolve) => {
    resolveInstalled = resolve;
  });
  const settled = new Promise<void>((resolve) => {
    resolveSettled = resolve;
  });
  return {
    tree,
    controller: new AbortController(),
    status: { state: 'unfitted', embedderId: '', reason: 'loading' },
    installed,
    resolveInstalled,
    settled,
    resolveSettled,
  };
}

function fittedStatus(base: Embedder, fitter: SpaceFitter, space: FittedSpace): SpaceStatus {
  return {
    state: 'fitted',
    embedderId: space.embedder.id,
    baseId: space.baseId ?? base.id,
    fitter: fitter.id,
    cached: space.cached,
    fitMilliseconds: space.fitMilliseconds,
    ...(space.file ? { file: space.file } : {}),
    ...(space.detail ? { detail: space.detail } : {}),
    ...(space.baseReason ? { base: space.baseReason } : {}),
  };
}

function isLanguageModel(value: unknown): value is LanguageModel {
  const model = value as Partial<LanguageModel>;
  return typeof model.generate === 'function' && typeof model.stream === 'function';
}
