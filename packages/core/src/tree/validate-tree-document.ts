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
  const nodes = (value as { nodes?: unknown } | null)?.nodes;
  const seen = new Set<string>();
  const problems: TreeProblem[] = [];
  for (const error of compiled.errors ?? []) {
    // `if` only says that a `then` failed, and a failed `oneOf` repeats its branches' errors.
    if (error.keyword === 'if' || error.keyword === 'oneOf') continue;
    // A failed `propertyNames` also reports its inner `enum` on the name: the outer error says it.
    if ((error as { propertyName?: string }).propertyName !== undefined) continue;
    const problem = unknownKeyProblem(error, nodes) ?? toProblem(error, nodes);
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

/**
 * A key a node (or its `callbacks`) may not have, once per key however many schema rules refuse it:
 * a key of another node type says so; an unknown one gets "Did you mean …?" from the keys this
 * node type takes, as `defineTree` does (`mute` → `isMute`).
 */
function unknownKeyProblem(error: ErrorObject, nodes: unknown): TreeProblem | null {
  const params = error.params as Record<string, unknown>;
  const name =
    error.keyword === 'propertyNames'
      ? String(params.propertyName)
      : error.keyword === 'additionalProperties'
        ? String(params.additionalProperty)
        : null;
  const match = /^\/nodes\/(\d+)(\/callbacks)?$/.exec(error.instancePath);
  if (name === null || !match || !Array.isArray(nodes)) return null;
  const node = nodes[Number(match[1])] as { id?: unknown; type?: unknown } | undefined;
  const nodeId = Number.isInteger(node?.id) ? (node!.id as number) : undefined;
  const type = node?.type as NodeType;
  if (!NODE_TYPES.includes(type)) return null;
  const at = `at ${error.instancePath}`;
  if (match[2]) {
    const guess = closestWord(name, CALLBACKS_BY_TYPE[type]);
    return {
      nodeId,
      message: `${at}: ${aNode(type)} node has no "${name}" callback.`,
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
      message: `${at}: "${name}" is not a property of ${aNode(type)} node.`,
      fix: `Remove it, or change the node type (docs/tree-format.md lists what each type takes).`,
    };
  const guess = closestWord(name, documentKeysOf(type));
  return {
    nodeId,
    message: `${at}: unknown property "${name}".`,
    fix: guess ? `Did you mean "${guess}"?` : 'Remove it, or check its spelling against docs/tree-format.md.',
  };
}

/** The keys a node of `type` may have in a tree document. */
function documentKeysOf(type: NodeType): string[] {
  const constants = CONSTANT_CALLBACKS.filter((key) => CALLBACKS_BY_TYPE[type].includes(key));
  return [...COMMON_PROPERTIES, ...PROPERTIES_BY_TYPE[type], ...constants, 'callbacks'];
}

function toProblem(error: ErrorObject, nodes: unknown): TreeProblem {
  const path = error.instancePath || '/';
  const match = /^\/nodes\/(\d+)/.exec(path);
  const node =
    match && Array.isArray(nodes) ? (nodes[Number(match[1])] as { id?: unknown; name?: unknown }) : undefined;
  const nodeId = Number.isInteger(node?.id) ? (node!.id as number) : undefined;
  const at = `at ${path}`;
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
      return rangeProblem(error, path, nodeId, node);
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
function rangeProblem(
  error: ErrorObject,
  path: string,
  nodeId: number | undefined,
  node: { name?: unknown } | undefined,
): TreeProblem {
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
  const name = typeof node?.name === 'string' && node.name ? ` "${node.name}"` : '';
  const which = nodeId === undefined ? '' : ` (node ${nodeId}${name})`;
  return {
    nodeId,
    message: `at ${path}${which}: ${property} must be ${range}; it is ${JSON.stringify(error.data)}.`,
    fix: `Set ${property} to a value ${range.startsWith('from') ? range : `of ${range}`}.`,
  };
}
