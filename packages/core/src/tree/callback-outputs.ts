import type { Blacklist } from '../context/blacklist.js';
import type { ChunkId } from '../protocol/chunk-id.js';
import type { MessageType, Outcome } from '../protocol/constants.js';
import type { FileMetadata } from '../protocol/file-metadata.js';
import type { Filter } from '../protocol/filter.js';
import type { HandoffRequest } from '../protocol/handoff.js';
import type { JsonSchema } from '../protocol/json-schema.js';
import type { LocalizedText } from '../protocol/localized-text.js';
import type { Source } from '../protocol/output-message.js';

/** Steps an `after` or `beforeRun` callback may continue at. */
export type TargetStep = 'explore' | 'before';

/** Output of `after` (docs/concepts.md §4, `BaseAfterOutput`). Returning nothing means "explore from here". */
export interface BaseAfterOutput {
  /** Node to move to; need not be a descendant. Absent: stay on the current node and explore. */
  nodeTarget?: number | null;
  /** Where the loop continues at `nodeTarget`. Default `explore`. */
  step?: TargetStep;
  /** `failure` ignores the other fields and triggers reach_anchor. Default `success`. */
  outcome?: Outcome;
  /** With an agent `nodeTarget`, continue that agent from its own last executed node. */
  resume?: boolean;
  /**
   * Hands the session to people (docs/concepts.md §11): the turn ends here (with `handoff.message`,
   * if any), and the user's next messages go to the operators until one hands the session back. The
   * other fields are ignored.
   */
  handoff?: HandoffRequest | null;
}

/** Output of the root's `beforeRun` (`BaseBeforeRunOutput`). Without `nodeTarget` the other fields are ignored. */
export interface BaseBeforeRunOutput {
  nodeTarget?: number | null;
  step?: TargetStep | null;
  resume?: boolean | null;
  /** Hands the session to people before the tree runs (see `BaseAfterOutput.handoff`). */
  handoff?: HandoffRequest | null;
}

/** Output of an agent's `fallback` (`BaseFallbackOutput`): run restarts at `nodeTarget` from its before step. */
export interface BaseFallbackOutput {
  nodeTarget: number;
  /**
   * `true`: the message answers a question the conversation was waiting on (a form's slot), which
   * `nodeTarget` resumes — the message was understood, not unmatched: the turn's analytics row says
   * `answered`, and the message stays out of the unmatched list and its "Add as chunks" suggestions
   * (docs/analytics.md). `formFallback` of `@treeagent/components` sets it.
   */
  resumes?: boolean;
}

/** Output of the root's `extendMessage` (`BaseExtendMessagePromptOutput`). */
export interface BaseExtendMessagePromptOutput {
  prompt: string;
  systemPrompt?: string;
}

/** A piece of a prompt: text, or files handed to the model. */
export type PromptSegment = { type: 'text'; content: string } | { type: 'files'; content: FileMetadata[] };

/** Output of `prompt` (`BasePromptOutput`). */
export interface BasePromptOutput {
  prompt?: string | null;
  systemPrompt?: string | null;
  files?: FileMetadata[] | null;
  segments?: PromptSegment[] | null;
  /** Passed to the model (`temperature`, `reasoningEffort`, `webSearch`…); unsupported ones are dropped. */
  modelParams?: Record<string, unknown> | null;
  /** How many previous history entries to send with the prompt. Default 0. */
  historyLimit?: number;
}

/** Output of `responseFormat` (`BaseResponseFormatOutput`). */
export interface BaseResponseFormatOutput {
  /** JSON schema of the answer (OpenAI response-format form; `{ name, schema }` wrappers are accepted). */
  schema: JsonSchema;
  /** Maximum number of model calls before `special.failResponseFormat` is set. Default 3. */
  attemptsLimit?: number;
}

/** The message of an emit (`Message`). */
export interface EmitMessage {
  type: MessageType;
  /**
   * Text of a STATIC message; must be absent for GENERATED. One text, or one per language
   * (`{ it: 'Ciao!', en: 'Hi!' }`): the session's language is sent (docs/multilingual-trees.md).
   */
  content?: LocalizedText | null;
}

/** Output of `emit` (`BaseEmitOutput`). */
export interface BaseEmitOutput {
  message: EmitMessage;
  /** The options the user may pick; each one text or one per language. */
  options?: LocalizedText[] | null;
  attachments?: FileMetadata[] | null;
  dynamicAttachments?: FileMetadata[] | null;
  sources?: Source[] | null;
  waitInteraction?: boolean;
}

/** Output of `query` (`BaseQueryOutput`). Without `query` the node scrolls. */
export interface BaseQueryOutput {
  query?: string | null;
  filter?: Filter | null;
  /**
   * Chunks to leave out: an array of chunk ids, or a `Blacklist` (such as
   * `context.exploreStrategy.constraints.blacklist`), whose chunk ids are left out; its node ids
   * do not apply to a query, which searches one node's chunks.
   */
  blackList?: ChunkId[] | Blacklist | null;
  /** Default 3. */
  chunkQty?: number;
  /** Default 0.25; ignored when scrolling. */
  threshold?: number;
  offset?: string | null;
}
