import { isDeepStrictEqual } from 'node:util';
import type { AgentOutput, Tree } from '@treeagent/core';
import type { TextExpectation, TurnExpectation } from './conversation.js';

/** One expectation that did not hold. */
export interface Mismatch {
  field: string;
  expected: unknown;
  actual: unknown;
}

/** What a turn produced, as the checks see it. */
export interface TurnOutcome {
  output: AgentOutput | null;
  error: { code: string; message: string } | null;
  state: Record<string, unknown>;
}

/** Whether `ref` (a name or an id, as `expect.node` and `expect.path` give them) is a node of `tree`. */
function hasNode(tree: Tree, ref: string | number): boolean {
  if (typeof ref === 'number') return tree.nodes.has(ref);
  for (const node of tree.nodes.values()) if (node.name === ref) return true;
  return false;
}

/** Checks a turn's outcome against its expectations. No expectations: the turn must not fail. */
export function checkTurn(tree: Tree, outcome: TurnOutcome, expect: TurnExpectation = {}): Mismatch[] {
  const mismatches: Mismatch[] = [];
  const add = (field: string, expected: unknown, actual: unknown) =>
    mismatches.push({ field, expected, actual });
  if (expect.error !== undefined) {
    if (outcome.error?.code !== expect.error)
      add(
        'error',
        expect.error,
        outcome.error ? `${outcome.error.code}: ${outcome.error.message}` : 'no error',
      );
    return mismatches;
  }
  if (outcome.error || !outcome.output) {
    add('error', 'no error', outcome.error ? `${outcome.error.code}: ${outcome.error.message}` : 'no output');
    return mismatches;
  }
  const output = outcome.output;
  const nameOf = (id: number | null) => (id === null ? null : (tree.nodes.get(id)?.name ?? id));
  const sameNode = (expected: string | number, id: number | null) =>
    typeof expected === 'number' ? expected === id : expected === tree.nodes.get(id ?? Number.NaN)?.name;
  const executed = output.trace.flatMap((event) =>
    event.type === 'step-start' && event.step === 'execute' ? [event.nodeId] : [],
  );
  const last = output.messages.at(-1);
  if (expect.status !== undefined && expect.status !== output.status)
    add('status', expect.status, output.status);
  // A name or id the tree does not have is a typo in the test, not a routing failure: say so.
  const unknown = [expect.node, ...(expect.path ?? [])].filter(
    (ref): ref is string | number => ref !== undefined && !hasNode(tree, ref),
  );
  for (const ref of new Set(unknown))
    add(
      'node',
      `a node of the tree "${tree.name}"`,
      `${JSON.stringify(ref)}, which names none: check its spelling (the names are the nodes' "name", or their ids)`,
    );
  // The rest of the turn is still checked; only the node and the path, which a typo makes moot, are not.
  if (expect.node !== undefined && !unknown.length) {
    const answered = last?.nodeId ?? output.nodeId;
    if (!sameNode(expect.node, answered)) add('node', expect.node, nameOf(answered));
  }
  if (expect.path !== undefined && !unknown.length) {
    const ok =
      expect.path.length === executed.length &&
      expect.path.every((step, index) => sameNode(step, executed[index]!));
    if (!ok) add('path', expect.path, executed.map(nameOf));
  }
  if (expect.messages !== undefined && expect.messages !== output.messages.length)
    add('messages', expect.messages, output.messages.length);
  if (expect.message !== undefined) {
    const expectations = Array.isArray(expect.message) ? expect.message : [expect.message];
    const texts = Array.isArray(expect.message)
      ? output.messages.map((message) => message.content ?? '')
      : [last?.content ?? ''];
    expectations.forEach((expectation, index) => {
      const text = texts[index];
      if (text === undefined || !matchesText(expectation, text))
        add(
          Array.isArray(expect.message) ? `message[${index}]` : 'message',
          expectation,
          text ?? '(no message)',
        );
    });
  }
  if (expect.options !== undefined && !isDeepStrictEqual(expect.options, last?.options ?? []))
    add('options', expect.options, last?.options ?? []);
  if (expect.warning !== undefined && expect.warning !== (last?.isWarning ?? false))
    add('warning', expect.warning, last?.isWarning ?? false);
  if (expect.sources !== undefined) {
    const titles = (last?.sources ?? []).map((source) => source.title ?? source.content);
    if (!isDeepStrictEqual(expect.sources, titles)) add('sources', expect.sources, titles);
  }
  for (const [key, value] of Object.entries(expect.state ?? {})) {
    if (!containsState(value, outcome.state[key])) add(`state.${key}`, value, outcome.state[key]);
  }
  return mismatches;
}

/**
 * Whether `actual` holds `expected`: a mapping checks only the keys it gives (recursively, so
 * `{ "form:booking": { values: { date: "2026-12-02" } } }` ignores the form's other fields); `null`
 * means absent or null; anything else must be equal.
 */
function containsState(expected: unknown, actual: unknown): boolean {
  if (expected === null) return actual === null || actual === undefined;
  if (typeof expected === 'object' && !Array.isArray(expected)) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([key, value]) =>
      containsState(value, (actual as Record<string, unknown>)[key]),
    );
  }
  return isDeepStrictEqual(expected, actual);
}

function matchesText(expectation: TextExpectation, text: string): boolean {
  if (typeof expectation === 'string') return text.includes(expectation);
  if ('contains' in expectation) return text.includes(expectation.contains);
  if ('equals' in expectation) return text === expectation.equals;
  return new RegExp(expectation.matches, 'u').test(text);
}
