import { type CallbackLimits, invokeCallback } from '../../callbacks/invoke-callback.js';
import { ExploreStrategy } from '../../context/explore-strategy.js';
import { SessionState } from '../../context/session-state.js';
import { embedTexts } from '../../embedding/embed-texts.js';
import { TreeAgentError } from '../../errors/tree-agent-error.js';
import type { ChunkSearch } from '../../explore/chunk-search.js';
import { FileAgent } from '../../files/file-agent.js';
import { type HistoryLoader, MemoryAgent } from '../../memory/memory-agent.js';
import type { LanguageModel } from '../../model/language-model.js';
import type { AgentEvent, AgentOutput, TurnStatus } from '../../protocol/events.js';
import type { HandoffTransition } from '../../protocol/handoff.js';
import type { HistoryEntry } from '../../protocol/history-entry.js';
import type { LocalizedText } from '../../protocol/localized-text.js';
import type { OutputMessage } from '../../protocol/output-message.js';
import type { SessionCommit, SessionRecord } from '../../session/session-store.js';
import { textIn } from '../../tree/localized-text.js';
import type { Self } from '../../tree/node-definition.js';
import { silentLlmNode } from '../../tree/silent-llm-node.js';
import type { TreeNode } from '../../tree/tree-node.js';
import { DEFAULT_MISSING_MODELS } from '../runtime/missing-models.js';
import type { AgentRuntime } from '../runtime/runtime.js';
import type { ExecuteResult } from './execute/execute-result.js';
import { handoffRow } from './handoff-rows.js';
import type { StepContext } from './step-context.js';
import { TurnContext } from './turn-context.js';
import { TurnHandoff } from './turn-handoff.js';
import type { TurnInput } from './turn-input.js';

/**
 * The working copy of one interaction, and its only owner. Everything the turn changes lives here
 * until the end; `commit()` turns it into one atomic session commit, so a failed turn changes
 * nothing. The state is private: the steps read it and ask for changes through the intent-named
 * operations below (`countExecution`, `applyExecution`, `beginFallback`, `endWithNoMatch`, …), which
 * the step loop calls in one place.
 */
export class Turn implements StepContext {
  readonly runtime: AgentRuntime;
  readonly record: SessionRecord;
  readonly input: TurnInput;
  readonly context: TurnContext;
  readonly startedAt: number;
  /** Exploration's chunk search for this turn; it follows `exploreStrategy.direction`. */
  readonly chunkSearch: ChunkSearch;
  /** The handoff within this turn (docs/architecture.md, "The handoff map"): request → start → hold → end. */
  readonly handoff: TurnHandoff;
  readonly #trace: AgentEvent[] = [];
  readonly #messages: OutputMessage[] = [];
  readonly #entries: HistoryEntry[];
  readonly #agentPositions: Map<number, number>;
  readonly #climbedFrom = new Set<number>();
  readonly #selves = new Map<number, Self>();
  readonly #sink: (event: AgentEvent) => void;
  #lastExecutedId: number | null;
  #pendingMessage: OutputMessage | null;
  #status: TurnStatus = 'answered';
  #fallbackReasons = new Set<'no-match' | 'error'>();
  #executed = 0;
  #fallbacks = 0;
  #direction: { text: string; vector: Promise<Float32Array> } | null = null;

  constructor(
    runtime: AgentRuntime,
    record: SessionRecord,
    input: TurnInput,
    loadHistory: HistoryLoader,
    sink: (event: AgentEvent) => void,
  ) {
    this.runtime = runtime;
    this.record = record;
    this.input = input;
    this.#sink = sink;
    this.startedAt = performance.now();
    const turn = record.turn + 1;
    this.#entries = [
      {
        role: 'user',
        content: input.message,
        turn,
        at: runtime.now().toISOString(),
        ...(input.selectedOption ? { selectedOption: input.selectedOption } : {}),
        ...(input.attachments.length ? { attachments: input.attachments } : {}),
      },
    ];
    const root = runtime.tree.root;
    const handoff = new TurnHandoff(record);
    this.handoff = handoff;
    this.context = new TurnContext({
      sessionState: new SessionState(record.state),
      input: { original: input.message, extended: input.message, attachments: input.attachments },
      exploreStrategy: new ExploreStrategy(input.message, record.constraints),
      metadata: { sessionId: record.id, clientMetadata: input.clientMetadata, serverMetadata: {} },
      memoryAgent: new MemoryAgent(loadHistory, this.#entries),
      fileAgent: new FileAgent({
        attachments: input.attachments,
        known: record.files ?? [],
        store: runtime.fileStore,
        sessionId: record.id,
      }),
      turn,
      node: { id: root.id, type: root.type, name: root.name },
      failCounter: record.failCounter,
      language: record.language ?? runtime.tree.defaultLanguage,
      onHandoff: (request) => handoff.requestFromContext(request, this.context.node.id),
    });
    this.#agentPositions = new Map(
      Object.entries(record.agentPositions).map(([agent, node]) => [Number(agent), node]),
    );
    this.#lastExecutedId = record.lastNodeId;
    this.#pendingMessage = record.pendingMessage;
    this.chunkSearch = runtime.chunkSearch(() => this.directionVector());
  }

  get sessionId(): string {
    return this.record.id;
  }

  /** The session's language (docs/multilingual-trees.md): the session's own, else the tree's default; `null` when the tree declares none. */
  get language(): string | null {
    return this.record.language ?? this.runtime.tree.defaultLanguage;
  }

  /** A customer text in the session's language (then the default language, then any it has). */
  localize(text: LocalizedText): string {
    return textIn(text, this.language, this.runtime.tree.defaultLanguage);
  }

  /** The node executed last (in this turn or, before the first execution, in the session). */
  get lastExecutedId(): number | null {
    return this.#lastExecutedId;
  }

  /** The message the last executed node sent and is waiting on, if any. */
  get pendingMessage(): OutputMessage | null {
    return this.#pendingMessage;
  }

  /** The last executed node of `agentId`'s subtree, as the session remembers it. */
  agentPosition(agentId: number): number | undefined {
    return this.#agentPositions.get(agentId);
  }

  /** The events of the turn so far (text deltas and `turn-end` excepted). */
  get trace(): readonly AgentEvent[] {
    return this.#trace;
  }

  emit(event: AgentEvent): void {
    if (event.type !== 'text-delta' && event.type !== 'turn-end') this.#trace.push(event);
    this.#sink(event);
  }

  /** Throws `ABORTED` when the caller cancelled the turn. */
  checkAbort(): void {
    if (this.input.signal?.aborted) {
      throw new TreeAgentError('ABORTED', 'The interaction was cancelled by the caller; nothing was saved.', {
        cause: this.input.signal.reason,
      });
    }
  }

  /** The `self` of the node's scope, running the scope's `init` the first time this interaction touches it. */
  async selfOf(node: TreeNode): Promise<Self> {
    const existing = this.#selves.get(node.scopeId);
    if (existing) return existing;
    const scope = this.runtime.tree.scopes.get(node.scopeId)!;
    const self: Self = {};
    this.#selves.set(scope.id, self);
    if (scope.init) {
      this.emit({ type: 'self-init', nodeId: scope.initNodeId, scope: scope.kind, componentId: scope.id });
      await this.call(node, 'init', scope.init, [self, this.context], scope.initNodeId);
    }
    return self;
  }

  /**
   * Runs a callback of `node` with `context.node` set to it, within the turn's `callbackTimeoutMs`
   * unless `limits` says otherwise.
   */
  async call(
    node: TreeNode,
    name: string,
    fn: (...args: any[]) => unknown,
    args: unknown[],
    reportAs = node.id,
    limits?: CallbackLimits,
  ): Promise<unknown> {
    this.checkAbort();
    const previous = this.context.node;
    this.context.node = { id: node.id, type: node.type, name: node.name };
    try {
      return await invokeCallback({
        nodeId: reportAs,
        name,
        fn,
        args,
        emit: (event) => this.emit(event),
        now: () => performance.now(),
        limits: limits ?? { timeoutMs: this.runtime.limits.callbackTimeoutMs },
      });
    } finally {
      this.context.node = previous;
    }
  }

  /** The unit vector of the current direction, embedded only when the direction changed. */
  directionVector(): Promise<Float32Array> {
    const text = this.context.exploreStrategy.direction;
    if (this.#direction?.text !== text) {
      const { exploreEmbedder, embeddingCache, messageCache = embeddingCache } = this.runtime;
      const vector = embedTexts(exploreEmbedder, [text], messageCache, this.input.signal).then(
        ([first]) => first!,
      );
      this.#direction = { text, vector };
      vector.catch(() => {
        if (this.#direction?.vector === vector) this.#direction = null;
      });
    }
    return this.#direction!.vector;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const { embedder, embeddingCache, messageCache = embeddingCache } = this.runtime;
    return embedTexts(embedder, texts, messageCache, this.input.signal);
  }

  /** The nodes that climbed to an anchor in this turn (a second climb from one is `LOOP`). */
  get climbed(): ReadonlySet<number> {
    return this.#climbedFrom;
  }

  /**
   * Counts one failure of `nodeId` that climbs to an anchor (fail counter +1, `fail-counter` event).
   * Climbing twice from the same node in one turn is a loop: `LOOP`.
   */
  climbFrom(nodeId: number, reason: 'leaf' | 'below-threshold' | 'failure-outcome'): void {
    if (this.#climbedFrom.has(nodeId)) {
      // An llm node that can show nothing is the usual cause: say so, and what to add (as lint does).
      const silent = this.runtime.tree.has(nodeId) ? silentLlmNode(this.runtime.tree.node(nodeId)) : null;
      throw new TreeAgentError(
        'LOOP',
        `Node ${nodeId} failed and reached its anchor twice in one turn.${silent ? ` The ${silent.message} Fix: ${silent.fix}` : ''}`,
        { nodeId },
      );
    }
    this.#climbedFrom.add(nodeId);
    this.emit({ type: 'fail-counter', value: this.context.incrementFailCounter(), nodeId, reason });
  }

  /** Counts the execution of `node`; past `maxSteps` executions the turn is a loop: `LOOP`. */
  countExecution(node: TreeNode): void {
    this.#executed += 1;
    const { maxSteps } = this.runtime.limits;
    if (this.#executed > maxSteps) {
      throw new TreeAgentError(
        'LOOP',
        `The turn executed more than ${maxSteps} nodes without answering the user (last: node ${node.id}). Check the after callbacks' nodeTarget for a cycle, or raise maxSteps.`,
        { nodeId: node.id },
      );
    }
  }

  /**
   * Applies what executing `node` produced: the message is delivered (response and history), the
   * retrieved chunks go to `context.retrieved`, and `node` becomes the last executed node, globally
   * and for its agent. A node that ends the turn leaves its message pending for the next one.
   */
  applyExecution(node: TreeNode, result: ExecuteResult): void {
    if (result.retrieved) {
      this.context.retrieved.set(node.id, result.retrieved);
      this.context.fileAgent.addFromChunks(result.retrieved);
    }
    if (result.message) this.#deliver(result.message);
    this.#lastExecutedId = node.id;
    if (node.agentId !== null) this.#agentPositions.set(node.agentId, node.id);
    this.#pendingMessage = result.endsTurn ? (result.message ?? null) : null;
  }

  /**
   * Starts running a fallback for `error`: past `maxFallbacks` the error is thrown instead. The
   * fallback is a fresh attempt with its own step budget (`maxFallbacks` bounds the total).
   */
  beginFallback(error: TreeAgentError): void {
    this.#fallbacks += 1;
    if (this.#fallbacks > this.runtime.limits.maxFallbacks) throw error;
    this.#executed = 0;
    this.#fallbackReasons.add(error.code === 'NO_MATCH' ? 'no-match' : 'error');
    this.#status = this.#fallbackReasons.has('error') ? 'fallback-error' : 'fallback-no-match';
  }

  /** Ends the turn with status `no-match`: nothing in `agentId` fits and it has no fallback. */
  endWithNoMatch(agentId: number): void {
    this.#status = 'no-match';
    this.emit({ type: 'no-match', agentId });
  }

  /** `resume: true`: the agent continues from `nodeId`, its own last executed node. */
  resumeAt(nodeId: number): void {
    this.#lastExecutedId = nodeId;
  }

  /** The session's last node is gone from the tree: start over from the primary agent. */
  forgetLostNode(lostNodeId: number): void {
    this.emit({
      type: 'session-reset',
      reason: `node ${lostNodeId} no longer exists in the tree`,
      lostNodeId,
    });
    this.#lastExecutedId = null;
    this.#pendingMessage = null;
  }

  /** The Memory Agent rewrote the message: `input.extended` and the explore direction take it. */
  applyExtendedMessage(extended: string): void {
    this.context.input.extended = extended;
    this.context.exploreStrategy.direction = extended;
    this.emit({ type: 'message-extended', original: this.input.message, extended });
  }

  /**
   * The handoff at the start of the turn: the user's return option ends it (an `end` row and event);
   * while people still have the session the message is kept for them and the tree does not run
   * (a `held` event, status `handed-off`). Returns whether the tree runs.
   */
  openHandoff(): boolean {
    const ended = this.handoff.endIfReturning(this.input.message, this.input.selectedOption);
    if (ended) this.#recordTransition(ended, this.runtime.now().toISOString());
    const held = this.handoff.hold();
    if (!held) return true;
    this.#status = 'handed-off';
    this.emit({ type: 'handoff', transition: held });
    return false;
  }

  /**
   * At the end of the steps: a requested handoff starts — its message is delivered (the node that
   * handed off waits on it), a history row and a `handoff` event record it, and the status is
   * `handed-off`.
   */
  applyHandoff(): void {
    const at = this.runtime.now().toISOString();
    const started = this.handoff.start(this.context.turn, at, (text) => this.localize(text));
    if (!started) return;
    const { state, nodeId, transition } = started;
    if (state.message) {
      const notice: OutputMessage = {
        id: this.nextMessageId(),
        nodeId,
        type: 'static',
        content: state.message,
        options: state.returnOption ? [state.returnOption] : [],
        attachments: [],
        dynamicAttachments: [],
        sources: [],
        waitInteraction: true,
        isWarning: false,
      };
      this.#deliver(notice);
      // The node that handed off waits on its notice: on the user's return its `after` sees the option.
      if (nodeId === this.#lastExecutedId) this.#pendingMessage = notice;
    }
    this.#status = 'handed-off';
    this.#recordTransition(transition, at);
  }

  /** A handoff transition of this turn: its `system` history row and its `handoff` event. */
  #recordTransition(transition: HandoffTransition, at: string): void {
    this.#entries.push(handoffRow(transition, this.context.turn, at));
    this.emit({ type: 'handoff', transition });
  }

  /** The language model for `node`: its own `model`, else the tree's default. */
  modelFor(node: TreeNode, purpose: string): LanguageModel {
    const name = node.definition.model ?? 'default';
    const model = this.runtime.models[name];
    if (!model) {
      const configured = Object.keys(this.runtime.models);
      const help = (this.runtime.missingModels ?? DEFAULT_MISSING_MODELS).help;
      throw new TreeAgentError(
        'MODEL_NOT_CONFIGURED',
        `Node ${node.id} needs a language model for ${purpose}, but no model named "${name}" is configured. ${configured.length ? `Configured: ${configured.join(', ')}.` : 'None is configured.'} ${help(name)}`,
        { nodeId: node.id, details: { model: name } },
      );
    }
    return model;
  }

  /** With `missingModels: 'notice'`, the notice `node` answers with when its model is not configured; else null. */
  missingModelNotice(node: TreeNode, purpose: string): string | null {
    const policy = this.runtime.missingModels;
    const name = node.definition.model ?? 'default';
    if (policy?.mode !== 'notice' || this.runtime.models[name]) return null;
    return `No language model configured: node ${node.id}${node.name ? ` ("${node.name}")` : ''} needs the model "${name}" for ${purpose}. ${policy.help(name)}`;
  }

  /** Adds a message to the response and to the history. */
  #deliver(message: OutputMessage): void {
    this.#messages.push(message);
    this.#entries.push({
      role: 'assistant',
      content: message.content,
      turn: this.context.turn,
      at: this.runtime.now().toISOString(),
      nodeId: message.nodeId,
      ...(message.options.length ? { options: message.options } : {}),
      ...(message.attachments.length ? { attachments: message.attachments } : {}),
      ...(message.sources.length ? { sources: message.sources } : {}),
      ...(message.waitInteraction ? { waitInteraction: true } : {}),
      ...(message.isWarning ? { isWarning: true } : {}),
    });
    this.emit({ type: 'message', message });
  }

  nextMessageId(): string {
    return `${this.context.turn}-${this.#messages.length + 1}`;
  }

  output(): AgentOutput {
    return {
      sessionId: this.record.id,
      turn: this.context.turn,
      status: this.#status,
      failCounter: this.context.failCounter,
      messages: this.#messages,
      serverMetadata: this.context.metadata.serverMetadata,
      nodeId: this.#lastExecutedId,
      trace: this.#trace,
      ...(this.handoff.state ? { handoff: this.handoff.state } : {}),
    };
  }

  /** The session commit of this interaction (throws `SESSION_STATE` when the state cannot be stored). */
  commit(): SessionCommit {
    const constraints = this.context.exploreStrategy.constraints;
    const extended = this.context.input.extended;
    if (extended !== this.input.message) this.#entries[0]!.extended = extended;
    return {
      expectedVersion: this.record.version,
      history: this.#entries,
      record: {
        ...this.record,
        version: this.record.version + 1,
        turn: this.context.turn,
        state: this.context.sessionState.serialize(),
        lastNodeId: this.#lastExecutedId,
        agentPositions: Object.fromEntries(this.#agentPositions),
        pendingMessage: this.#pendingMessage,
        constraints: constraints.keep ? structuredClone(constraints.toJSON()) : null,
        failCounter: this.context.failCounter,
        files: this.context.fileAgent.list(),
        handoff: this.handoff.state,
        startAt: this.handoff.startAt,
        updatedAt: this.runtime.now().toISOString(),
      },
    };
  }
}
