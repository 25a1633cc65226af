import { NODE_TYPES } from '../protocol/constants.js';
import { CALLBACKS_BY_TYPE, COMMON_PROPERTIES, PROPERTIES_BY_TYPE } from './constants.js';
import { LANGUAGE_CODE_PATTERN } from './localized-text.js';
import { CONSTANT_CALLBACKS, TREE_DOCUMENT_FORMAT, TREE_DOCUMENT_VERSION } from './tree-document-types.js';

/** `callbacks["tools.<name>"]`: the function of a tool. */
const TOOL_CALLBACK_PATTERN = '^tools\\.[A-Za-z0-9_-]{1,64}$';
const threshold = { type: 'number', minimum: -1, maximum: 1 };
const text = { type: 'string', minLength: 1 };
/** A language code, as `languages` and the keys of a per-language text have it (`LANGUAGE_CODE_PATTERN`). */
const languageCode = { type: 'string', pattern: LANGUAGE_CODE_PATTERN.source };
/** A customer text per language: `{ "it": "Ciao!", "en": "Hi!" }` (docs/multilingual-trees.md). */
const perLanguage = {
  type: 'object',
  minProperties: 1,
  propertyNames: languageCode,
  additionalProperties: { type: 'string' },
};
const localizedText = { $ref: '#/$defs/localizedText' };
const fileMetadata = {
  type: 'object',
  required: ['id', 'name', 'mimeType', 'origin'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    mimeType: { type: 'string' },
    size: { type: 'integer', minimum: 0 },
    origin: { enum: ['chat', 'rag', 'generated'] },
    url: { type: 'string' },
    sessionId: { type: 'string' },
  },
  additionalProperties: false,
};
const files = { type: ['array', 'null'], items: { $ref: '#/$defs/fileMetadata' } };
const promptSegment = {
  oneOf: [
    {
      type: 'object',
      required: ['type', 'content'],
      properties: { type: { const: 'text' }, content: { type: 'string' } },
      additionalProperties: false,
    },
    {
      type: 'object',
      required: ['type', 'content'],
      properties: {
        type: { const: 'files' },
        content: { type: 'array', items: { $ref: '#/$defs/fileMetadata' } },
      },
      additionalProperties: false,
    },
  ],
};

/** Properties of a node, by name, as the schema types them (the engine's own checks go further). */
const NODE_PROPERTIES: Record<string, unknown> = {
  id: { type: 'integer', description: 'Unique in the tree and stable across reloads (sessions store it).' },
  type: { enum: [...NODE_TYPES] },
  parent: { type: ['integer', 'null'], description: 'Id of the parent node; absent only on the root.' },
  name: { type: 'string' },
  description: { type: 'string' },
  chunks: {
    type: 'array',
    description: 'Signposts for exploration (and, with forRag on a query node, retrievable content).',
    items: { oneOf: [text, { $ref: '#/$defs/chunk' }] },
  },
  links: {
    type: 'object',
    description: 'Named references to other nodes, handed to callbacks as links.<name>.',
    additionalProperties: { type: 'integer' },
  },
  isBlocking: { type: 'boolean' },
  isAnchor: { type: 'boolean' },
  isMute: { type: 'boolean' },
  similarityThreshold: threshold,
  model: { type: 'string' },
  smartExtendedMessage: { type: 'boolean' },
  conversationGoal: localizedText,
  topics: { type: 'array', items: { type: 'string' } },
  defaultSimilarityThreshold: threshold,
  exploreForRagChunks: { type: 'boolean' },
  isPrimary: { type: 'boolean' },
  warning: {
    oneOf: [
      text,
      perLanguage,
      {
        type: 'object',
        required: ['type', 'prompt'],
        properties: {
          type: { const: 'generated' },
          prompt: { type: 'string' },
          systemPrompt: { type: 'string' },
        },
        additionalProperties: false,
      },
    ],
  },
  use: { type: 'string', description: 'Name of one of the document\'s "components" to instantiate here.' },
  idBase: { type: 'integer', description: "The component's nodes get ids idBase + their local id." },
  callbacks: {
    type: 'object',
    description:
      'Callbacks by the name the document\'s module exports them under: { "after": "checkOrder" }.',
    additionalProperties: { type: 'string', pattern: '^[A-Za-z_$][A-Za-z0-9_$]*$' },
  },
  emit: {
    type: 'object',
    description: 'The constant message of an emit node (what an emit callback would return).',
    required: ['message'],
    properties: {
      message: {
        type: 'object',
        required: ['type'],
        properties: {
          type: { enum: ['static', 'generated', 'none'] },
          content: { oneOf: [{ type: ['string', 'null'] }, perLanguage] },
        },
        additionalProperties: false,
      },
      options: { type: ['array', 'null'], items: localizedText },
      attachments: files,
      dynamicAttachments: files,
      sources: {
        type: ['array', 'null'],
        items: {
          type: 'object',
          required: ['content'],
          properties: {
            title: { type: 'string' },
            content: { type: 'string' },
            chunkId: { type: ['string', 'integer'] },
            extra: { type: 'object' },
          },
          additionalProperties: false,
        },
      },
      waitInteraction: { type: 'boolean' },
    },
    additionalProperties: false,
  },
  prompt: {
    type: 'object',
    description: 'A constant prompt (what a prompt callback would return).',
    properties: {
      prompt: { type: ['string', 'null'] },
      systemPrompt: { type: ['string', 'null'] },
      files,
      segments: { type: ['array', 'null'], items: promptSegment },
      modelParams: { type: ['object', 'null'] },
      historyLimit: { type: 'integer', minimum: 0 },
    },
    additionalProperties: false,
  },
  responseFormat: {
    type: 'object',
    required: ['schema'],
    properties: { schema: { type: 'object' }, attemptsLimit: { type: 'integer', minimum: 1 } },
    additionalProperties: false,
  },
  tools: {
    type: 'object',
    description:
      'Functions the model may call, by name; the function that runs each is callbacks["tools.<name>"] (docs/models.md, Tools).',
    propertyNames: { pattern: '^[A-Za-z0-9_-]{1,64}$' },
    additionalProperties: {
      type: 'object',
      required: ['parameters'],
      properties: {
        description: { type: 'string' },
        parameters: { type: 'object', description: 'JSON schema of the arguments object.' },
        timeoutMs: { type: 'number', exclusiveMinimum: 0 },
      },
      additionalProperties: false,
    },
  },
  maxToolSteps: {
    type: 'integer',
    minimum: 1,
    description: 'How many times the model may call tools before it must answer in text (default 5).',
  },
  query: {
    type: 'object',
    description: 'A constant search (what a query callback would return).',
    properties: {
      query: { type: ['string', 'null'] },
      filter: { type: ['object', 'null'] },
      blackList: { type: ['array', 'null'], items: { type: ['string', 'integer'] } },
      chunkQty: { type: 'integer', minimum: 1 },
      threshold: { type: 'number' },
      offset: { type: ['string', 'null'] },
    },
    additionalProperties: false,
  },
};

/** Per node type: which properties it may have and which callbacks it may name. */
function typeRules(): unknown[] {
  return NODE_TYPES.map((type) => {
    const constants = CONSTANT_CALLBACKS.filter((key) => CALLBACKS_BY_TYPE[type].includes(key));
    return {
      if: { type: 'object', properties: { type: { const: type } }, required: ['type'] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then.
      then: {
        type: 'object',
        propertyNames: {
          enum: [...COMMON_PROPERTIES, ...PROPERTIES_BY_TYPE[type], ...constants, 'callbacks'],
        },
        properties: {
          callbacks: CALLBACKS_BY_TYPE[type].length
            ? {
                type: 'object',
                propertyNames: PROPERTIES_BY_TYPE[type].includes('tools')
                  ? { anyOf: [{ enum: [...CALLBACKS_BY_TYPE[type]] }, { pattern: TOOL_CALLBACK_PATTERN }] }
                  : { enum: [...CALLBACKS_BY_TYPE[type]] },
              }
            : { type: 'object', maxProperties: 0 },
        },
      },
    };
  });
}

/**
 * The JSON Schema (draft 2020-12) of a tree document, version 1: published as
 * `@treeagent/core/tree-document.schema.json`. It checks the shape of every node; `defineTree`
 * checks the rest (one root, one primary agent, parents and links that exist, unique ids).
 */
export const TREE_DOCUMENT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: `urn:treeagent:tree-document:v${TREE_DOCUMENT_VERSION}`,
  title: 'Tree Agent tree document',
  description:
    'A tree of typed nodes routed by semantic similarity, as data; callbacks are named exports of "module" (docs/tree-format.md).',
  type: 'object',
  required: ['nodes'],
  properties: {
    $schema: { type: 'string' },
    format: { const: TREE_DOCUMENT_FORMAT },
    version: { const: TREE_DOCUMENT_VERSION },
    name: { type: 'string' },
    languages: {
      type: 'array',
      description:
        'The languages the tree speaks, the default first: ["it", "en"]. Texts may then be given per language.',
      minItems: 1,
      uniqueItems: true,
      items: languageCode,
    },
    module: { type: 'string', description: 'Module exporting the callbacks, relative to this file.' },
    components: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['nodes'],
        properties: { nodes: { type: 'array', items: { $ref: '#/$defs/node' } } },
        additionalProperties: false,
      },
    },
    nodes: { type: 'array', items: { $ref: '#/$defs/node' } },
  },
  additionalProperties: false,
  $defs: {
    node: {
      type: 'object',
      required: ['id', 'type'],
      properties: NODE_PROPERTIES,
      additionalProperties: false,
      allOf: typeRules(),
    },
    chunk: {
      type: 'object',
      required: ['text'],
      properties: {
        id: { type: ['string', 'integer'] },
        text,
        forRag: { type: 'boolean' },
        language: { ...languageCode, description: 'The language the chunk is written in (for lint).' },
        extra: { type: 'object', description: 'Tags that Qdrant-style filters select on.' },
      },
      additionalProperties: false,
    },
    fileMetadata,
    localizedText: { oneOf: [{ type: 'string' }, perLanguage] },
  },
} as const;
