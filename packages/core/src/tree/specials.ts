import type { Step } from '../protocol/constants.js';
import type { AgentOutput } from '../protocol/events.js';
import type { HistoryEntry } from '../protocol/history-entry.js';
import type { OutputMessage } from '../protocol/output-message.js';
import type { RetrievedChunk } from '../protocol/retrieved-chunk.js';

/** `special` of an emit's `after`: the message sent and the option the user picked (docs/concepts.md §10, Decisions). */
export interface EmitAfterSpecial {
  kind: 'emit';
  /** The message the node sent; `null` when its after runs on a multi-agent resume without it. */
  message: OutputMessage | null;
  /** The option the user selected in reply, when the message had options. */
  selectedOption: string | null;
}

/** `special` of an llm node's `after`: the answer, parsed when there is a `responseFormat`. */
export interface LlmAfterSpecial {
  kind: 'llm';
  /** The model's whole answer. */
  text: string;
  /** The parsed JSON answer when the node has a `responseFormat` and the answer matched it. */
  object: unknown;
  /** True when no answer matched the schema within `attemptsLimit`. */
  failResponseFormat: boolean;
  attempts: number;
}

export interface QueryAfterSpecial {
  kind: 'query';
  /** The query text; `null` for a scroll. */
  query: string | null;
  chunks: RetrievedChunk[];
  /** Cursor of the next scroll page, `null` when there is none or for a search. */
  nextOffset: string | null;
}

export interface EmptyAfterSpecial {
  kind: 'empty';
}

/** `special` handed to `after`, by node type. */
export type AfterSpecial = EmitAfterSpecial | LlmAfterSpecial | QueryAfterSpecial | EmptyAfterSpecial;

/** `special` of `prompt`: the chunks retrieved by the latest query node of the interaction. */
export interface PromptSpecial {
  retrieved: RetrievedChunk[];
}

/** `special` of `extendMessage`. */
export interface ExtendMessageSpecial {
  history: HistoryEntry[];
}

/** `special` of `beforeRun`. */
export interface BeforeRunSpecial {
  isFirstInteraction: boolean;
  lastNodeId: number | null;
  selectedOption: string | null;
}

/** `special` of `afterRun`. */
export interface AfterRunSpecial {
  output: AgentOutput;
}

/** `special` of `fallback`: what went wrong and where. */
export interface FallbackSpecial {
  error: { code: string; message: string };
  /** Node where the error started. */
  nodeId: number;
  step: Step | 'explore';
  /** `true` when the error was `NO_MATCH` (exploration ended on the agent). */
  noMatch: boolean;
}
