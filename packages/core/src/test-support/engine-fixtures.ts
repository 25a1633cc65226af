import { InMemoryEmbeddingCache } from '../embedding/embedding-cache.js';
import { TreeAgent, type TreeAgentOptions } from '../engine/agent/tree-agent.js';
import { loadRuntime } from '../engine/runtime/load-runtime.js';
import type { TurnLimits } from '../engine/runtime/runtime.js';
import { Turn } from '../engine/turn/turn.js';
import type { TurnInput } from '../engine/turn/turn-input.js';
import { InMemoryFileStore } from '../files/in-memory-file-store.js';
import type { LanguageModel } from '../model/language-model.js';
import { MessageType } from '../protocol/constants.js';
import type { AgentEvent, AgentOutput } from '../protocol/events.js';
import { emptySessionRecord, type SessionRecord } from '../session/session-store.js';
import { ExactEmbedder } from '../test/exact-embedder.js';
import { ScriptedLanguageModel } from '../test/scripted-language-model.js';
import { defineTree } from '../tree/define-tree.js';
import type { NodeDefinition } from '../tree/node-definition.js';
import { InMemoryVectorStore } from '../vector/in-memory-vector-store.js';

/**
 * The engine's test fixtures (private to this repository's tests; mocks, labelled as such).
 * Routing is chosen by the test: every text of `ROUTING_VECTORS` has an exact vector, and any
 * other text embeds to the zero vector, which is similar to nothing.
 */
export const ROUTING_VECTORS: Record<string, number[]> = {
  alpha: [1, 0, 0, 0],
  alpha2: [0.8, 0.6, 0, 0],
  beta: [0, 1, 0, 0],
  gamma: [0, 0, 1, 0],
  delta: [0, 0, 0, 1],
};

/** Options of `testAgent`: the agent's own, plus the exact vectors of the embedder. */
export type TestAgentOptions = Omit<TreeAgentOptions, 'tree'> & { vectors?: Record<string, number[]> };

/**
 * A `TreeAgent` over `nodes` with an `ExactEmbedder` (`ROUTING_VECTORS` unless `vectors` is given)
 * and a scripted default model answering "scripted answer"; `options` override either.
 */
export function testAgent(nodes: NodeDefinition[], options: TestAgentOptions = {}): TreeAgent {
  const { vectors = ROUTING_VECTORS, ...rest } = options;
  return new TreeAgent({
    tree: defineTree({ nodes }),
    embedder: new ExactEmbedder({ vectors }),
    models: new ScriptedLanguageModel({ answers: 'scripted answer' }),
    ...rest,
  });
}

/** An emit output sending a static message. */
export const say = (content: string) => ({ message: { type: MessageType.STATIC, content } });

/** Ids of the nodes a turn executed, in order. */
export function executed(output: AgentOutput): number[] {
  return output.trace.flatMap((event) =>
    event.type === 'step-start' && event.step === 'execute' ? [event.nodeId] : [],
  );
}

/** The events of one type, typed. */
export function eventsOf<T extends AgentEvent['type']>(
  events: readonly AgentEvent[],
  type: T,
): Extract<AgentEvent, { type: T }>[] {
  return events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);
}

/** Every event of a stream, in order. */
export async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Options of `testTurn`. */
export interface TestTurnOptions {
  message?: string;
  selectedOption?: string | null;
  vectors?: Record<string, number[]>;
  models?: Record<string, LanguageModel>;
  limits?: Partial<TurnLimits>;
  /** The session the turn starts from (an empty one by default). */
  record?: Partial<SessionRecord>;
}

/**
 * One `Turn` over `nodes`, without a `TreeAgent`: a runtime of in-memory parts and an empty
 * session. For unit tests of the turn's operations and of single steps (a `Turn` is a
 * `StepContext`). `events` collects everything the turn emits.
 */
export async function testTurn(
  nodes: NodeDefinition[],
  options: TestTurnOptions = {},
): Promise<{ turn: Turn; events: AgentEvent[] }> {
  const now = () => new Date('2026-01-01T00:00:00.000Z');
  const runtime = await loadRuntime({
    tree: defineTree({ nodes }),
    embedder: new ExactEmbedder({ vectors: options.vectors ?? ROUTING_VECTORS }),
    embeddingCache: new InMemoryEmbeddingCache(),
    vectorStore: new InMemoryVectorStore(),
    fileStore: new InMemoryFileStore(),
    models: options.models ?? { default: new ScriptedLanguageModel({ answers: 'scripted answer' }) },
    limits: { maxSteps: 50, maxFallbacks: 3, callbackTimeoutMs: 0, modelTimeoutMs: 0, ...options.limits },
    now,
    exploreIn: 'memory',
    calibration: false,
  });
  const input: TurnInput = {
    message: options.message ?? 'alpha',
    attachments: [],
    clientMetadata: {},
    selectedOption: options.selectedOption ?? null,
  };
  const record = { ...emptySessionRecord('s', now().toISOString()), ...options.record };
  const events: AgentEvent[] = [];
  const turn = new Turn(
    runtime,
    record,
    input,
    async () => [],
    (event) => events.push(event),
  );
  return { turn, events };
}
