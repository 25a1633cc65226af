import { MessageType, NODE_TYPES, type NodeType } from '../protocol/constants.js';
import { closestWord } from './closest-word.js';
import { ALL_CALLBACKS, CALLBACKS_BY_TYPE, COMMON_PROPERTIES, PROPERTIES_BY_TYPE } from './constants.js';
import { isLocalizedObject, LANGUAGE_CODE_PATTERN } from './localized-text.js';
import { aNode } from './node-type-article.js';
import type { TreeProblem } from './tree-problem.js';
import { validateTools } from './validate-tools.js';

/** Callbacks that may also be given as a constant value (the output they would return). */
const CONSTANT_CALLBACKS = new Set(['prompt', 'emit', 'query', 'responseFormat']);

/** Checks one node on its own: type, id, known keys, callbacks, chunks, threshold, links' shape. */
export function validateNode(node: Record<string, unknown>, index: number, problems: TreeProblem[]): void {
  const nodeId = Number.isInteger(node.id) ? (node.id as number) : undefined;
  const where = (message: string, fix: string) => problems.push({ nodeId, message, fix });
  if (nodeId === undefined) {
    where(
      `the node at index ${index} has id ${JSON.stringify(node.id)}.`,
      'Give every node an integer "id".',
    );
  }
  const type = node.type as NodeType;
  if (!NODE_TYPES.includes(type)) {
    where(`unknown type ${JSON.stringify(node.type)}.`, `Use one of: ${NODE_TYPES.join(', ')}.`);
    return;
  }
  const supported = CALLBACKS_BY_TYPE[type];
  const allowed = new Set([...COMMON_PROPERTIES, ...PROPERTIES_BY_TYPE[type], ...supported]);
  for (const key of Object.keys(node)) {
    if (allowed.has(key) || node[key] === undefined) continue;
    if ((ALL_CALLBACKS as readonly string[]).includes(key)) {
      where(
        `${aNode(type)} node does not support the "${key}" callback.`,
        supported.length
          ? `Remove it; ${aNode(type)} node supports only: ${supported.join(', ')}.`
          : `Remove it; ${aNode(type)} node has no callbacks.`,
      );
    } else {
      const guess = closestWord(key, [...allowed]);
      where(`unknown property "${key}".`, guess ? `Did you mean "${guess}"?` : 'Remove it.');
    }
  }
  for (const callback of supported) {
    const value = node[callback];
    if (value === undefined || typeof value === 'function') continue;
    if (CONSTANT_CALLBACKS.has(callback) && typeof value === 'object' && value !== null) continue;
    where(
      `"${callback}" must be a function${CONSTANT_CALLBACKS.has(callback) ? ' or a constant output object' : ''}.`,
      `Give "${callback}" a function (self, context, …) => output.`,
    );
  }
  if (type === 'component' || type === 'head' || type === 'tail') {
    for (const key of ['isBlocking', 'isAnchor', 'isMute', 'similarityThreshold', 'links', 'model']) {
      if (node[key] !== undefined) {
        where(
          `"${key}" has no effect on ${aNode(type)} node, which disappears when components are flattened.`,
          type === 'head' ? "Set it on the head's child." : 'Set it on a node inside the component.',
        );
      }
    }
  }
  validateThreshold(node.similarityThreshold, 'similarityThreshold', where);
  if (type === 'root')
    validateThreshold(node.defaultSimilarityThreshold, 'defaultSimilarityThreshold', where);
  validateChunks(node, type, where);
  validateLinksShape(node.links, where);
  validateConstants(node, type, where);
  if (type === 'llm' || type === 'emit') validateTools(node, where);
}

type Report = (message: string, fix: string) => void;

function validateThreshold(value: unknown, key: string, where: Report): void {
  if (value === undefined) return;
  if (typeof value !== 'number') {
    const numeric = typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value));
    where(
      `${key} is ${JSON.stringify(value)}: it must be a number${typeof value === 'string' ? ', not a string' : ''}.`,
      numeric
        ? `Write ${key}: ${Number(value)} without quotes.`
        : `Set ${key} to a cosine similarity between -1 and 1.`,
    );
    return;
  }
  if (!(value >= -1 && value <= 1)) {
    where(
      `${key} is ${JSON.stringify(value)}, outside [-1, 1].`,
      `Set ${key} to a cosine similarity between -1 and 1.`,
    );
  }
}

function validateChunks(node: Record<string, unknown>, type: NodeType, where: Report): void {
  if (node.chunks === undefined) return;
  if (!Array.isArray(node.chunks)) {
    where(
      '"chunks" must be an array.',
      'Give "chunks" as an array of strings or { text, forRag?, extra? } objects.',
    );
    return;
  }
  if (node.chunks.length && (type === 'component' || type === 'head' || type === 'tail' || type === 'root')) {
    where(
      `${aNode(type)} node cannot hold chunks (it is not part of the explored tree).`,
      type === 'head' ? "Move the chunks to the head's child." : 'Move the chunks to a node below it.',
    );
  }
  node.chunks.forEach((chunk, index) => {
    if (typeof chunk === 'string') {
      if (chunk.trim() === '') where(`chunk ${index} is empty.`, 'Remove it or give it text.');
      return;
    }
    if (
      typeof chunk !== 'object' ||
      chunk === null ||
      typeof chunk.text !== 'string' ||
      chunk.text.trim() === ''
    ) {
      where(`chunk ${index} has no text.`, 'Give every chunk a non-empty "text".');
      return;
    }
    if (chunk.forRag === true && type !== 'query') {
      where(
        `chunk ${index} has forRag: true on ${aNode(type)} node.`,
        'forRag chunks live only in query nodes: move it to a query node or drop forRag.',
      );
    }
    if (
      chunk.language !== undefined &&
      (typeof chunk.language !== 'string' || !LANGUAGE_CODE_PATTERN.test(chunk.language))
    ) {
      where(
        `chunk ${index} has language ${JSON.stringify(chunk.language)}, which is not a language code.`,
        'Give the code of a language of the tree: language: "it".',
      );
    }
    if (chunk.id !== undefined && typeof chunk.id !== 'string' && !Number.isInteger(chunk.id)) {
      where(`chunk ${index} has id ${JSON.stringify(chunk.id)}.`, 'Chunk ids are integers or strings.');
    }
    if (
      chunk.extra !== undefined &&
      (typeof chunk.extra !== 'object' || chunk.extra === null || Array.isArray(chunk.extra))
    ) {
      where(`chunk ${index} has an "extra" that is not an object.`, 'Give "extra" as an object of tags.');
    }
  });
}

function validateLinksShape(links: unknown, where: Report): void {
  if (links === undefined) return;
  if (typeof links !== 'object' || links === null || Array.isArray(links)) {
    where('"links" must be an object of name → node id.', 'Write links as { confirm: 12, cancel: 13 }.');
    return;
  }
  for (const [name, target] of Object.entries(links)) {
    if (!Number.isInteger(target))
      where(`link "${name}" is ${JSON.stringify(target)}.`, 'A link is the integer id of a node.');
  }
}

function validateConstants(node: Record<string, unknown>, type: NodeType, where: Report): void {
  if (type === 'guardrail') {
    const warning = node.warning as unknown;
    const generated =
      isLocalizedObject(warning) &&
      (warning as { type?: unknown }).type === 'generated' &&
      typeof (warning as { prompt?: unknown }).prompt === 'string';
    const ok =
      generated ||
      (typeof warning === 'string' && warning.trim() !== '') ||
      (isLocalizedObject(warning) && !('type' in warning) && Object.keys(warning).length > 0);
    if (!ok)
      where(
        'a guardrail needs a "warning".',
        'Set "warning" to a text, to one text per language ({ it: "…", en: "…" }), or to { type: "generated", prompt }.',
      );
    else if (!generated) validateLocalized(warning, 'warning', where);
  }
  const emit = node.emit as
    | { message?: { type?: unknown; content?: unknown }; options?: unknown }
    | undefined;
  if (type === 'emit' && emit && typeof emit === 'object') {
    const message = emit.message;
    if (message?.type === MessageType.GENERATED && message.content != null) {
      where('a GENERATED message cannot have "content".', 'Drop "content", or use type STATIC.');
    }
    validateLocalized(message?.content, 'emit.message.content', where);
    if (Array.isArray(emit.options))
      for (const [index, option] of emit.options.entries())
        validateLocalized(option, `emit.options[${index}]`, where);
  }
  if (type === 'root') validateLocalized(node.conversationGoal, 'conversationGoal', where);
  for (const key of ['smartExtendedMessage', 'exploreForRagChunks']) {
    if (type === 'root' && node[key] !== undefined && typeof node[key] !== 'boolean') {
      where(
        `"${key}" must be a boolean, not ${JSON.stringify(node[key])}.`,
        `Write ${key}: true or ${key}: false.`,
      );
    }
  }
  if (type === 'agent' && node.isPrimary !== undefined && typeof node.isPrimary !== 'boolean') {
    where('"isPrimary" must be a boolean.', 'Set isPrimary: true on exactly one agent.');
  }
}

/** A per-language text must map language codes to strings; a plain string is checked elsewhere. */
function validateLocalized(value: unknown, field: string, where: Report): void {
  if (!isLocalizedObject(value)) return;
  for (const [language, text] of Object.entries(value)) {
    if (!LANGUAGE_CODE_PATTERN.test(language))
      where(
        `"${field}" has the key ${JSON.stringify(language)}, which is not a language code.`,
        'Key a text by language codes such as "it", "en" or "pt-BR": { it: "Ciao!", en: "Hi!" }.',
      );
    else if (typeof text !== 'string')
      where(
        `"${field}" in ${language} is ${JSON.stringify(text)}, not a string.`,
        `Give the ${language} text as a string.`,
      );
  }
}
