import { formatErrorSummary } from '@treeagent/core';
import type { ConversationResult } from './run-conversations.js';

/** A readable report of failed conversations: each failing turn with what was expected and what came. */
export function formatFailures(results: readonly ConversationResult[]): string {
  const lines: string[] = [];
  for (const result of results) {
    if (result.passed) continue;
    lines.push(`✗ ${result.file ? `${result.file} › ` : ''}${result.name}`);
    for (const turn of result.turns) {
      if (!turn.mismatches.length) continue;
      const said = turn.turn.option !== undefined ? `option "${turn.turn.option}"` : `"${turn.turn.say}"`;
      lines.push(`  turn ${turn.index + 1} (${said}):`);
      for (const mismatch of turn.mismatches) {
        lines.push(`    ${mismatch.field}:`);
        lines.push(`      - expected ${show(mismatch.expected)}`);
        lines.push(`      + actual   ${show(mismatch.actual)}`);
      }
      for (const error of turn.errors ?? [])
        lines.push(`    error in the turn: ${formatErrorSummary(error)}`);
    }
  }
  return lines.join('\n');
}

/**
 * One line per conversation and the totals. With `failures: 'omit'` (after `formatFailures` has
 * printed them) failed conversations are only counted, so each failure is printed once.
 */
export function formatSummary(
  results: readonly ConversationResult[],
  options: { failures?: 'list' | 'omit' } = {},
): string {
  const passed = results.filter((result) => result.passed).length;
  const shown = options.failures === 'omit' ? results.filter((result) => result.passed) : results;
  const lines = shown.map(
    (result) => `${result.passed ? '✓' : '✗'} ${result.file ? `${result.file} › ` : ''}${result.name}`,
  );
  lines.push(`${passed} passed, ${results.length - passed} failed`);
  return lines.join('\n');
}

function show(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value);
}
