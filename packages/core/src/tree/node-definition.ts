import type { Context } from '../context/context.js';
import type { LocalizedText } from '../protocol/localized-text.js';
import type {
  BaseAfterOutput,
  BaseBeforeRunOutput,
  BaseEmitOutput,
  BaseExtendMessagePromptOutput,
  BaseFallbackOutput,
  BasePromptOutput,
  BaseQueryOutput,
  BaseResponseFormatOutput,
} from './callback-outputs.js';
import type { ChunkDefinition } from './chunk.js';
import type { Links } from './links.js';
import type {
  AfterRunSpecial,
  AfterSpecial,
  BeforeRunSpecial,
  EmitAfterSpecial,
  EmptyAfterSpecial,
  ExtendMessageSpecial,
  FallbackSpecial,
  LlmAfterSpecial,
  PromptSpecial,
  QueryAfterSpecial,
} from './specials.js';
import type { ToolSet } from './tool-definition.js';

/** A component's (or the root's) shared object, rebuilt every interaction. */
export type Self = Record<string, any>;

type MaybePromise<T> = T | Promise<T>;

export type InitCallback<S extends Self = Self> = (self: S, context: Context) => MaybePromise<void>;
export type BeforeCallback<S extends Self = Self> = (self: S, context: Context) => MaybePromise<void>;
export type AfterCallback<S extends Self = Self, P extends AfterSpecial = AfterSpecial> = (
  self: S,
  context: Context,
  special: P,
  links: Links,
) => MaybePromise<BaseAfterOutput | undefined | void>;
export type ExtendMessageCallback<S extends Self = Self> = (
  self: S,
  context: Context,
  special: ExtendMessageSpecial,
) => MaybePromise<BaseExtendMessagePromptOutput>;
export type BeforeRunCallback<S extends Self = Self> = (
  self: S,
  context: Context,
  special: BeforeRunSpecial,
  links: Links,
) => MaybePromise<BaseBeforeRunOutput | undefined | void>;
export type AfterRunCallback<S extends Self = Self> = (
  self: S,
  context: Context,
  special: AfterRunSpecial,
) => MaybePromise<void>;
export type FallbackCallback<S extends Self = Self> = (
  self: S,
  context: Context,
  special: FallbackSpecial,
  links: Links,
) => MaybePromise<BaseFallbackOutput>;
export type PromptCallback<S extends Self = Self> = (
  self: S,
  context: Context,
  special: PromptSpecial,
) => MaybePromise<BasePromptOutput>;
export type ResponseFormatCallback<S extends Self = Self> = (
  self: S,
  context: Context,
) => MaybePromise<BaseResponseFormatOutput>;
export type EmitCallback<S extends Self = Self> = (self: S, context: Context) => MaybePromise<BaseEmitOutput>;
export type QueryCallback<S extends Self = Self> = (
  self: S,
  context: Context,
) => MaybePromise<BaseQueryOutput>;

/** Properties every node has (docs/concepts.md §2). */
export interface NodeBase {
  /** Integer id, unique in the tree and stable across reloads (sessions store it). */
  id: number;
  /** Id of the parent node; absent only on the root. */
  parent?: number | null;
  name?: string;
  description?: string;
  /** Signposts for exploration (and, on query nodes with `forRag`, retrievable content). A string is `{ text }`. */
  chunks?: (string | ChunkDefinition)[];
  /** Named references to other nodes, handed to callbacks as `links.<name>`. */
  links?: Record<string, number>;
  /** Exploration stops on this node when it reaches it after moving. */
  isBlocking?: boolean;
  /** reach_anchor climbs to the nearest ancestor with this flag (the agent when none). */
  isAnchor?: boolean;
  /** The node's message is delivered but the turn continues at once. */
  isMute?: boolean;
  /** Exploration moves below this node only for a chunk with similarity above this value, in [-1, 1]. */
  similarityThreshold?: number;
  /** Name of a language model configured on the agent, overriding the tree's default for this node. */
  model?: string;
}

export interface RootNodeDefinition<S extends Self = Self> extends NodeBase {
  type: 'root';
  /** Rewrite each message with the conversation's implicit references before exploring. */
  smartExtendedMessage?: boolean;
  /** What the conversation is for; guides the extended message. One text, or one per language. */
  conversationGoal?: LocalizedText;
  /** Topics the agent talks about; guides the extended message. */
  topics?: string[];
  /** Threshold of nodes that set none. Default 0.25. */
  defaultSimilarityThreshold?: number;
  /**
   * With `true`, query nodes' `forRag` chunks are also signposts for exploration (Tree Agent before
   * 0.2). Default `false`: as in the original product, `forRag` chunks are only retrieved by their
   * query node, and exploration routes by the other chunks (docs/differences.md).
   */
  exploreForRagChunks?: boolean;
  init?: InitCallback<S>;
  extendMessage?: ExtendMessageCallback<S>;
  beforeRun?: BeforeRunCallback<S>;
  afterRun?: AfterRunCallback<S>;
}

export interface AgentNodeDefinition<S extends Self = Self> extends NodeBase {
  type: 'agent';
  /** Exactly one agent child of the root is primary: first interactions start from it. */
  isPrimary?: boolean;
  fallback?: FallbackCallback<S>;
}

export interface EmptyNodeDefinition<S extends Self = Self> extends NodeBase {
  type: 'empty';
  before?: BeforeCallback<S>;
  after?: AfterCallback<S, EmptyAfterSpecial>;
}

export interface QueryNodeDefinition<S extends Self = Self> extends NodeBase {
  type: 'query';
  before?: BeforeCallback<S>;
  /** The search to run; a constant object or a callback. Absent: search with the explore direction. */
  query?: QueryCallback<S> | BaseQueryOutput;
  after?: AfterCallback<S, QueryAfterSpecial>;
}

export interface LlmNodeDefinition<S extends Self = Self> extends NodeBase {
  type: 'llm';
  before?: BeforeCallback<S>;
  prompt?: PromptCallback<S> | BasePromptOutput;
  responseFormat?: ResponseFormatCallback<S> | BaseResponseFormatOutput;
  /**
   * Functions the model may call (docs/models.md, *Tools*): each call runs, its result goes back to
   * the model, which then answers or calls more tools. A tool that throws or times out fails the node.
   */
  tools?: ToolSet<S>;
  /** How many times the model may call tools before it must answer in text. Default 5. */
  maxToolSteps?: number;
  after?: AfterCallback<S, LlmAfterSpecial>;
}

export interface EmitNodeDefinition<S extends Self = Self> extends NodeBase {
  type: 'emit';
  before?: BeforeCallback<S>;
  prompt?: PromptCallback<S> | BasePromptOutput;
  /** The message to send; a constant object or a callback. */
  emit?: EmitCallback<S> | BaseEmitOutput;
  /**
   * Functions the model of a GENERATED message may call (docs/models.md, *Tools*): each call runs, its result goes back to
   * the model, which then answers or calls more tools. A tool that throws or times out fails the node.
   */
  tools?: ToolSet<S>;
  /** How many times the model may call tools before it must answer in text. Default 5. */
  maxToolSteps?: number;
  after?: AfterCallback<S, EmitAfterSpecial>;
}

export interface SwitchNodeDefinition<S extends Self = Self> extends NodeBase {
  type: 'switch';
  /** May change `context.exploreStrategy` before exploration continues from this node. */
  before?: BeforeCallback<S>;
}

/** A guardrail's warning: fixed text (one language or per language), or generated by the model from a prompt. */
export type GuardrailWarning =
  | string
  | { readonly [language: string]: string }
  | { type: 'generated'; prompt: string; systemPrompt?: string };

export interface GuardrailNodeDefinition extends NodeBase {
  type: 'guardrail';
  warning: GuardrailWarning;
}

export interface ComponentNodeDefinition extends NodeBase {
  type: 'component';
  /**
   * Instantiate a reusable component here: its nodes are cloned with ids `idBase + localId`.
   * Without it, the component's head and tail are written in the tree as children of this node.
   */
  use?: ComponentDefinition<any>;
  idBase?: number;
}

export interface HeadNodeDefinition<S extends Self = Self> extends NodeBase {
  type: 'head';
  /** Initialises the component's `self`; runs once per interaction that touches the component. */
  init?: InitCallback<S>;
}

export interface TailNodeDefinition extends NodeBase {
  type: 'tail';
}

/** One node of a tree definition, discriminated on `type`. */
export type NodeDefinition<S extends Self = Self> =
  | RootNodeDefinition<S>
  | AgentNodeDefinition<S>
  | EmptyNodeDefinition<S>
  | QueryNodeDefinition<S>
  | LlmNodeDefinition<S>
  | EmitNodeDefinition<S>
  | SwitchNodeDefinition<S>
  | GuardrailNodeDefinition
  | ComponentNodeDefinition
  | HeadNodeDefinition<S>
  | TailNodeDefinition;

/** Nodes allowed inside a reusable component definition. */
export type ComponentNodeDefinitionItem<S extends Self = Self> = Exclude<
  NodeDefinition<S>,
  RootNodeDefinition<S> | AgentNodeDefinition<S>
>;

/** The canonical tree definition: a flat list of nodes. */
export interface TreeDefinition<S extends Self = Self> {
  /** Stable name of the tree (used for caches and collections). */
  name?: string;
  /**
   * The languages the tree speaks, as language codes (`['it', 'en']`); the first is the default
   * (docs/multilingual-trees.md). Needed when a text is given per language (`{ it: '…', en: '…' }`):
   * a session speaks one of them, and `treeagent lint` lists the texts missing in any of them.
   */
  languages?: string[];
  nodes: NodeDefinition<S>[];
}

/** A reusable component: nodes with local ids, one `head` (the entry) and at most one `tail`. */
export interface ComponentDefinition<S extends Self = Self> {
  name: string;
  nodes: ComponentNodeDefinitionItem<S>[];
}
