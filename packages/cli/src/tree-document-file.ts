import { readFileSync } from 'node:fs';
import { TreeValidationError } from '@treeagent/core';
import { parseTreeDocument, type TreeDocument } from '@treeagent/core/document';

/** A JSON tree file as read: the document and its exact text (the editor's version of it). */
export interface TreeDocumentFile {
  value: TreeDocument;
  text: string;
}

/**
 * Reads and checks a JSON tree file; a syntax error names the file, the line and the column. A
 * document whose JSON parses and whose shape is wrong comes back with its shape problems (`shape`,
 * each naming the node and the fix) instead of throwing them, so that the loader can report them together
 * with the problems of its callbacks ("every problem at once"). A JSON syntax error still throws.
 */
export function readTreeDocument(path: string): TreeDocumentFile & { shape: TreeValidationError | null } {
  const text = readFileSync(path, 'utf8');
  try {
    return { value: parseTreeDocument(text, path), text, shape: null };
  } catch (error) {
    if (!(error instanceof TreeValidationError)) throw error;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw error; // a syntax error: nothing more to check
    }
    if (!value || typeof value !== 'object' || !Array.isArray((value as { nodes?: unknown }).nodes))
      throw error;
    return { value: value as TreeDocument, text, shape: error };
  }
}
