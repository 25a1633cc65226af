import type { NodeType } from '../protocol/constants.js';

/** The callbacks each node type supports (docs/concepts.md §2). Anything else on a node is a validation error. */
export const CALLBACKS_BY_TYPE: Record<NodeType, readonly string[]> = {
  root: ['extendMessage', 'beforeRun', 'afterRun', 'init'],
  agent: ['fallback'],
  empty: ['before', 'after'],
  query: ['before', 'query', 'after'],
  llm: ['before', 'prompt', 'responseFormat', 'after'],
  emit: ['before', 'prompt', 'emit', 'after'],
  switch: ['before'],
  guardrail: [],
  component: [],
  head: ['init'],
  tail: [],
};

/** Every callback name that exists on some node type. */
export const ALL_CALLBACKS = [
  'before',
  'after',
  'extendMessage',
  'beforeRun',
  'afterRun',
  'fallback',
  'prompt',
  'responseFormat',
  'emit',
  'query',
  'init',
] as const;
export type CallbackName = (typeof ALL_CALLBACKS)[number];

/** Properties every node may have (docs/concepts.md §2). */
export const COMMON_PROPERTIES = [
  'id',
  'type',
  'parent',
  'name',
  'description',
  'chunks',
  'links',
  'isBlocking',
  'isAnchor',
  'isMute',
  'similarityThreshold',
  'model',
] as const;

/** Properties only some node types have. */
export const PROPERTIES_BY_TYPE: Record<NodeType, readonly string[]> = {
  root: [
    'smartExtendedMessage',
    'conversationGoal',
    'topics',
    'defaultSimilarityThreshold',
    'exploreForRagChunks',
  ],
  agent: ['isPrimary'],
  empty: [],
  query: [],
  llm: ['tools', 'maxToolSteps'],
  emit: ['tools', 'maxToolSteps'],
  switch: [],
  guardrail: ['warning'],
  component: ['use', 'idBase'],
  head: [],
  tail: [],
};
