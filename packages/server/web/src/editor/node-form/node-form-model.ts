import {
  CALLBACKS_BY_TYPE,
  COMMON_PROPERTIES,
  CONSTANT_CALLBACKS,
  PROPERTIES_BY_TYPE,
  type TreeDocumentNode,
} from '@treeagent/core/client';
import type { EditorLintFinding, EditorProblem } from '../../../../src/api-types';

/** A change to a node, merged into it by the editor (`undefined` removes a property). */
export type Patch = Record<string, unknown>;

/** A chunk as a tree document holds it: its text alone, or an object with its extras. */
export type Chunk =
  | string
  | { id?: string | number; text: string; forRag?: boolean; extra?: Record<string, unknown> };

/** A chunk as an object (what a change of one of its fields starts from). */
export type ChunkObject = Exclude<Chunk, string>;

/** The node types a node can be changed into, and the types of a new child. */
export const CHANGEABLE_TYPES = ['emit', 'empty', 'switch', 'query', 'llm', 'guardrail'];

/** A string property's value, or `''` when it is absent or not a string. */
export const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The value of the input an event came from. */
export const inputValue = (event: Event): string => (event.target as HTMLInputElement).value;

/** Whether the checkbox an event came from is checked. */
export const checked = (event: Event): boolean => (event.target as HTMLInputElement).checked;

/** A chunk's text. */
export const chunkText = (chunk: Chunk): string => (typeof chunk === 'string' ? chunk : chunk.text);

/** The node's chunks (none when it holds no list). */
export const chunksOf = (node: TreeDocumentNode): Chunk[] =>
  (Array.isArray(node.chunks) ? node.chunks : []) as Chunk[];

/**
 * The chunks with the one at `index` changed by `change` (given as an object); a chunk left with
 * nothing but its text is written back as a string, as in code.
 */
export function updateChunkAt(
  chunks: readonly Chunk[],
  index: number,
  change: (chunk: ChunkObject) => Chunk,
): Chunk[] {
  return chunks.map((chunk, position) => {
    if (position !== index) return chunk;
    const next = change(typeof chunk === 'string' ? { text: chunk } : { ...chunk });
    return typeof next === 'object' && Object.keys(next).length === 1 && 'text' in next ? next.text : next;
  });
}

/** The non-empty lines of a text, trimmed (pasted chunks, an emit's options). */
export function linesOf(typed: string): string[] {
  return typed
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/**
 * A chunk's `extra` as typed: `undefined` when blank, the object when it is a JSON object, and an
 * error naming the chunk (1-based) and the form to write otherwise.
 */
export function parseChunkExtra(
  typed: string,
  index: number,
): { extra: Record<string, unknown> | undefined } | { error: string } {
  const raw = typed.trim();
  if (!raw) return { extra: undefined };
  try {
    const extra: unknown = JSON.parse(raw);
    if (typeof extra === 'object' && extra !== null && !Array.isArray(extra))
      return { extra: extra as Record<string, unknown> };
  } catch {
    // Not JSON: the same answer as JSON that is not an object.
  }
  return { error: `The extra of chunk ${index + 1} is not a JSON object: write it as {"key": "value"}.` };
}

/** A threshold as typed: `undefined` when blank (inherited or calibrated), the number otherwise. */
export function numberOrUndefined(value: string): number | undefined {
  return value.trim() === '' ? undefined : Number(value);
}

/**
 * A name → value map with `key` set to `value`, or removed when `value` is empty; `undefined` when
 * nothing is left, so the property disappears from the document (callbacks, links).
 */
export function withEntry<T>(
  map: Record<string, T>,
  key: string,
  value: T | '' | undefined,
): Record<string, T> | undefined {
  const next = { ...map };
  if (value === '' || value === undefined) delete next[key];
  else next[key] = value;
  return Object.keys(next).length ? next : undefined;
}

/** The callback names a select offers: the module's exports, and the current one even when it is not exported. */
export function callbackChoices(exported: readonly string[], current: string | undefined): string[] {
  return [...new Set([...exported, ...(current ? [current] : [])])];
}

/** A link name the form accepts: a JavaScript identifier (it becomes `links.<name>` in code). */
export const isLinkName = (name: string): boolean => /^[A-Za-z_$][\w$]*$/.test(name);

/** One line of the node's findings: the check's problems first (errors), then the lint's warnings. */
export interface NodeFinding {
  kind: 'error' | 'warning';
  message: string;
  fix: string;
}

/** The node's problems and lint findings as one list, errors first. */
export function findingsOf(
  problems: readonly EditorProblem[],
  lint: readonly EditorLintFinding[],
): NodeFinding[] {
  return [
    ...problems.map((problem) => ({ kind: 'error' as const, message: problem.message, fix: problem.fix })),
    ...lint.map((finding) => ({ kind: 'warning' as const, message: finding.message, fix: finding.fix })),
  ];
}

/** Which sections of the form a node of `type` has. */
export function sectionsOf(type: string): { routing: boolean; chunks: boolean; links: boolean } {
  const structural = type === 'component' || type === 'head' || type === 'tail';
  return { routing: !structural, chunks: !structural && type !== 'root', links: !structural };
}

/**
 * The properties the form's own sections edit: every property common to all nodes but `model` (the
 * head, routing, chunks, links), and the flags, message, warning, component and callbacks.
 */
export const SECTION_PROPERTIES = new Set<string>([
  ...COMMON_PROPERTIES.filter((key) => key !== 'model'),
  ...['isPrimary', 'defaultSimilarityThreshold', 'callbacks', 'use', 'idBase', 'emit', 'warning'],
]);

/** The node types whose `model` is used (the schema allows it on every node). */
const MODEL_TYPES = new Set(['llm', 'emit', 'guardrail', 'root']);

/**
 * The properties of a node of `type` edited by schema-driven fields: every property the schema
 * allows the type that no section edits, in the schema's order; a constant (`prompt`, `query`,
 * `responseFormat`) is left out while the node names a callback of that name instead.
 */
export function schemaPropertiesOf(type: string, callbacks: Readonly<Record<string, string>>): string[] {
  const byType = (PROPERTIES_BY_TYPE as Record<string, readonly string[]>)[type] ?? [];
  const supported = (CALLBACKS_BY_TYPE as Record<string, readonly string[]>)[type] ?? [];
  const constants = CONSTANT_CALLBACKS.filter((key) => supported.includes(key) && !callbacks[key]);
  return [...COMMON_PROPERTIES, ...byType, ...constants].filter(
    (key) => !SECTION_PROPERTIES.has(key) && (key !== 'model' || MODEL_TYPES.has(type)),
  );
}

/** The properties of an emit's constant message that the message section does not edit. */
export const EMIT_SECTION_PROPERTIES = new Set(['message', 'options', 'attachments']);
