import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { TreeAgentError } from '@treeagent/core';
import type { LabelledUtterance } from '@treeagent/core/evaluation';

/**
 * Reads labelled utterances: JSON (an array of `[text, expected]`), JSON Lines (one such array per
 * line), or TSV/CSV (`text<TAB>expected` / `text,expected`, the label in the last column).
 * The expected value is a node name, or `none` for messages nothing should answer.
 */
export function loadUtterances(path: string): LabelledUtterance[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new TreeAgentError('INVALID_INPUT', `Cannot read the utterances file ${path}.`);
  }
  const extension = extname(path).toLowerCase();
  const rows: unknown[] =
    extension === '.json'
      ? (JSON.parse(text) as unknown[])
      : extension === '.jsonl'
        ? text
            .split('\n')
            .filter((line) => line.trim())
            .map((line) => JSON.parse(line))
        : text
            .split('\n')
            .filter((line) => line.trim())
            .map((line) => {
              const separator = extension === '.csv' ? line.lastIndexOf(',') : line.lastIndexOf('\t');
              return separator < 0
                ? [line]
                : [line.slice(0, separator).trim(), line.slice(separator + 1).trim()];
            });
  if (!Array.isArray(rows))
    throw new TreeAgentError('INVALID_INPUT', `${path} must hold an array of [text, expected] pairs.`);
  return rows.map((row, index) => {
    if (!Array.isArray(row) || typeof row[0] !== 'string' || typeof row[1] !== 'string') {
      throw new TreeAgentError(
        'INVALID_INPUT',
        `${path}, item ${index + 1}: expected [text, expected node name or "none"], got ${JSON.stringify(row)}.`,
      );
    }
    return [row[0], row[1]] as const;
  });
}
