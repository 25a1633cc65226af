import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { NODE_TYPES, type NodeType } from '../protocol/constants.js';
import { closestWord } from './closest-word.js';
import { CALLBACKS_BY_TYPE, COMMON_PROPERTIES, PROPERTIES_BY_TYPE } from './constants.js';
import { jsonErrorPosition } from './json-error-position.js';
import { aNode } from './node-type-article.js';
import { TREE_DOCUMENT_SCHEMA } from './tree-document-schema.js';
import { CONSTANT_CALLBACKS, type TreeDocument } from './tree-document-types.js';
import type { TreeProblem } from './tree-problem.js';
import { TreeValidationError } from './tree-validation-error.js';

let compiled: ReturnType<Ajv2020['compile']> | null = null;

/**
 * Checks a value against the tree document schema (`TREE_DOCUMENT_SCHEMA`) and returns the problems,
 * each naming the node (by id) and the JSON path, with the fix. An empty list means the shape is
 * right; `defineTree` still checks the tree as a whole.
 */
export function validateTreeDocument(value: unknown): TreeProblem[] {
  // `verbose`: an error carries the value and its schema (a range's other bound, for its message).
  compiled ??= new Ajv2020({ allErrors: true, strict: false, verbose: true }).compile(TREE_DOCUMENT_SCHEMA);
  if (compiled(value)) return [];
  const seen = new Set<string>();
  const problems: TreeProblem[] = [];
  for (const error of compiled.errors ?? []) {
    // `if` only says that a `then` failed, and a failed `oneOf` repeats its branches' errors.
    if (error.keyword === 'if' || error.keyword === 'oneOf') continue;
    // A failed `propertyNames` also reports its inner `enum` on the name: the outer error says it.
    if ((error as { propertyName?: string }).propertyName !== undefined) continue;
    const at = nodeAt(error.instancePath, value);
    const problem = unknownKeyProblem(error, at) ?? toProblem(error, at);
    const key = `${problem.nodeId}|${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

/**
 * Parses the text of a tree document and checks its shape; throws a `TreeValidationError` listing
 * every problem (a JSON syntax error with its line and column).
 *
 * @example
 * const document = parseTreeDocument(readFileSync('tree.json', 'utf8'), 'tree.json');
 */
export function parseTreeDocument(text: string, file = 'the tree document'): TreeDocument {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = jsonErrorPosition(text);
    const at = position >= 0 ? lineAndColumn(text, position) : '';
    throw new TreeValidationError([
      {
        message: `${file} is not valid JSON${at}: ${message.split('\n')[0]}.`,
        fix: 'Fix the JSON syntax (a missing comma or quote, a trailing comma).',
      },
    ]);
  }
  const problems = validateTreeDocument(value);
  if (problems.length) throw new TreeValidationError(problems);
  return value as TreeDocument;
}

function lineAndColumn(text: string, position: number): string {
  const before = text.slice(0, position).split('\n');
  return ` at line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
}

/** The node an error's path points into: a node of the tree, or of one of its `components`. */
interface NodeAt {
  node: { id?: unknown; type?: unknown; name?: unknown };
  /** Its id when it is a node of the tree (a component's nodes have local ids, no tree id). */
  nodeId: number | undefined;
  /** The path to the node itself (`/nodes/2`, `/components/address/nodes/0`). */
  path: string;
  /** How the message names it after the path: `(node 3 "shipping")`, `(component "address", node 1 "street")`. */
  label: string;
}

/** The node `path` (a JSON pointer) is in, or undefined when it is not in one. */
function nodeAt(path: string, document: unknown): NodeAt | undefined {
  const inTree = /^\/nodes\/(\d+)/.exec(path);
  const inComponent = /^\/components\/([^/]+)\/nodes\/(\d+)/.exec(path);
  const match = inTree ?? inComponent;
  if (!match) return undefined;
  const component = inComponent ? inComponent[1]!.replaceAll('~1', '/').replaceAll('~0', '~') : undefined;
  const owner = component
    ? (document as { components?: Record<string, { nodes?: unknown }> }).components?.[component]
    : document;
  const nodes = (owner as { nodes?: unknown } | null | undefined)?.nodes;
  const node = Array.isArray(nodes) ? nodes[Number(match[inComponent ? 2 : 1])] : undefined;
  if (!node || typeof node !== 'object') return undefined;
  const { id, name } = node as { id?: unknown; name?: unknown };
  const named = typeof name === 'string' && name ? ` "${name}"` : '';
  const localId = Number.isInteger(id) ? ` ${id}` : '';
  return {
    node,
    nodeId: !component && Number.isInteger(id) ? (id as number) : undefined,
    path: match[0],
    label: component
      ? ` (component "${component}", node${localId}${named})`
      : localId
        ? ` (node${localId}${named})`
        : '',
  };
}

/**
 * A key a node (or its `callbacks`) may not have, once per key however many schema rules refuse it:
 * a key of another node type says so; an unknown one gets "Did you mean …?" from the keys this
 * node type takes, as `defineTree` does (`mute` → `isMute`).
 */
function unknownKeyProblem(error: ErrorObject, at: NodeAt | undefined): TreeProblem | null {
  const params = error.params as Record<string, unknown>;
  const name =
    error.keyword === 'propertyNames'
      ? String(params.propertyName)
      : error.keyword === 'additionalProperties'
        ? String(params.additionalProperty)
        : null;
  const rest = at ? error.instancePath.slice(at.path.length) : null;
  if (name === null || !at || (rest !== '' && rest !== '/callbacks')) return null;
  const { nodeId } = at;
  const type = at.node.type as NodeType;
  if (!NODE_TYPES.includes(type)) return null;
  const where = `at ${error.instancePath}${componentLabel(at)}`;
  if (rest) {
    const guess = closestWord(name, CALLBACKS_BY_TYPE[type]);
    return {
      nodeId,
      message: `${where}: ${aNode(type)} node has no "${name}" callback.`,
      fix: guess
        ? `Did you mean "${guess}"?`
        : CALLBACKS_BY_TYPE[type].length
          ? `Remove it; ${aNode(type)} node takes only: ${CALLBACKS_BY_TYPE[type].join(', ')}.`
          : `Remove it; ${aNode(type)} node has no callbacks.`,
    };
  }
  if (name in TREE_DOCUMENT_SCHEMA.$defs.node.properties)
    return {
      nodeId,
      message: `${where}: "${name}" is not a property of ${aNode(type)} node.`,
      fix: `Remove it, or change the node type (docs/tree-format.md lists what each type takes).`,
    };
  const guess = closestWord(name, documentKeysOf(type));
  return {
    nodeId,
    message: `${where}: unknown property "${name}".`,
    fix: guess ? `Did you mean "${guess}"?` : 'Remove it, or check its spelling against docs/tree-format.md.',
  };
}

/**
 * A component's node named after the path (its problems carry no tree node id): every message of a
 * node inside `components` says which component and which of its nodes. A tree's node is named by
 * `nodeId` (and in full by a range's message).
 */
function componentLabel(at: NodeAt | undefined): string {
  return at && at.nodeId === undefined ? at.label : '';
}

/** The keys a node of `type` may have in a tree document. */
function documentKeysOf(type: NodeType): string[] {
  const constants = CONSTANT_CALLBACKS.filter((key) => CALLBACKS_BY_TYPE[type].includes(key));
  return [...COMMON_PROPERTIES, ...PROPERTIES_BY_TYPE[type], ...constants, 'callbacks'];
}

function toProblem(error: ErrorObject, node: NodeAt | undefined): TreeProblem {
  const path = error.instancePath || '/';
  const nodeId = node?.nodeId;
  const at = `at ${path}${componentLabel(node)}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return {
        nodeId,
        message: `${at}: unknown property "${params.additionalProperty}".`,
        fix: 'Remove it, or check its spelling against docs/tree-format.md.',
      };
    case 'propertyNames': {
      const name = String(params.propertyName);
      const inCallbacks = path.endsWith('/callbacks');
      return {
        nodeId,
        message: inCallbacks
          ? `${at}: this node type has no "${name}" callback.`
          : `${at}: "${name}" is not a property of this node type.`,
        fix: 'Remove it, or change the node type (docs/tree-format.md lists what each type takes).',
      };
    }
    case 'maxProperties':
      if (path.endsWith('/callbacks'))
        return {
          nodeId,
          message: `${at}: this node type has no callbacks.`,
          fix: 'Remove "callbacks", or change the node type.',
        };
      break;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return rangeProblem(error, path, node);
    case 'required':
      return {
        nodeId,
        message: `${at}: "${params.missingProperty}" is missing.`,
        fix: `Add "${params.missingProperty}".`,
      };
  }
  return {
    nodeId,
    message: `${at}: ${error.message ?? 'is not valid'}${error.keyword === 'enum' ? ` (${(params.allowedValues as unknown[]).join(', ')})` : ''}.`,
    fix: 'Correct the value (docs/tree-format.md gives the shape of every property).',
  };
}

/**
 * A number out of its range: the property, the node (id and name: `/nodes/14` is the 15th entry of
 * the file, not node 14), the whole range and the value given.
 * `at /nodes/2/similarityThreshold (node 3 "shipping"): similarityThreshold must be from -1 to 1; it is 2.`
 */
function rangeProblem(error: ErrorObject, path: string, node: NodeAt | undefined): TreeProblem {
  const schema = (error.parentSchema ?? {}) as Partial<
    Record<'minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum', number>
  >;
  // A bound that is inclusive (`minimum`: "1", then "1 or more") or exclusive ("more than 0").
  const bound = (inclusive: number | undefined, exclusive: number | undefined, beyond: string) =>
    inclusive !== undefined
      ? { text: `${inclusive}`, inclusive: true }
      : exclusive !== undefined
        ? { text: `${beyond} ${exclusive}`, inclusive: false }
        : null;
  const low = bound(schema.minimum, schema.exclusiveMinimum, 'more than');
  const high = bound(schema.maximum, schema.exclusiveMaximum, 'less than');
  const range =
    low && high
      ? `from ${low.text} to ${high.text}`
      : low
        ? `${low.text}${low.inclusive ? ' or more' : ''}`
        : `${high?.text}${high?.inclusive ? ' or less' : ''}`;
  const property = path.slice(path.lastIndexOf('/') + 1);
  return {
    nodeId: node?.nodeId,
    message: `at ${path}${node?.label ?? ''}: ${property} must be ${range}; it is ${JSON.stringify(error.data)}.`,
    fix: `Set ${property} to a value ${range.startsWith('from') ? range : `of ${range}`}.`,
  };
}
