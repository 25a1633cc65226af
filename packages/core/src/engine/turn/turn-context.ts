import type { Context, CurrentNode, Metadata, TreeAgentInput } from '../../context/context.js';
import type { ExploreStrategy } from '../../context/explore-strategy.js';
import type { SessionState } from '../../context/session-state.js';
import type { FileAgent } from '../../files/file-agent.js';
import type { MemoryAgent } from '../../memory/memory-agent.js';
import type { HandoffRequest } from '../../protocol/handoff.js';
import type { RetrievedChunk } from '../../protocol/retrieved-chunk.js';

/** The `context` of one interaction; the same object is handed to every callback of the turn. */
export class TurnContext implements Context {
  readonly sessionState: SessionState;
  readonly input: TreeAgentInput;
  readonly exploreStrategy: ExploreStrategy;
  readonly metadata: Metadata;
  readonly memoryAgent: MemoryAgent;
  readonly fileAgent: FileAgent;
  readonly turn: number;
  readonly language: string | null;
  readonly retrieved = new Map<number, readonly RetrievedChunk[]>();
  node: CurrentNode;
  #failCounter: number;
  readonly #onHandoff: (request: unknown) => void;

  constructor(init: {
    sessionState: SessionState;
    input: TreeAgentInput;
    exploreStrategy: ExploreStrategy;
    metadata: Metadata;
    memoryAgent: MemoryAgent;
    fileAgent: FileAgent;
    turn: number;
    node: CurrentNode;
    failCounter: number;
    language: string | null;
    /** `context.handoff(request)`: the turn validates and records the request. */
    onHandoff: (request: unknown) => void;
  }) {
    this.sessionState = init.sessionState;
    this.input = init.input;
    this.exploreStrategy = init.exploreStrategy;
    this.metadata = init.metadata;
    this.memoryAgent = init.memoryAgent;
    this.fileAgent = init.fileAgent;
    this.turn = init.turn;
    this.language = init.language;
    this.node = init.node;
    this.#failCounter = init.failCounter;
    this.#onHandoff = init.onHandoff;
  }

  handoff(request: HandoffRequest): void {
    this.#onHandoff(request);
  }

  get failCounter(): number {
    return this.#failCounter;
  }

  resetFailCounter(): void {
    this.#failCounter = 0;
  }

  /** Used by the engine when exploration or reach_anchor counts a failure. */
  incrementFailCounter(): number {
    this.#failCounter += 1;
    return this.#failCounter;
  }
}
