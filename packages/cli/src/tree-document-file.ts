import { readFileSync } from 'node:fs';
import { parseTreeDocument, type TreeDocument } from '@treeagent/core/document';

/** A JSON tree file as read: the document and its exact text (the editor's version of it). */
export interface TreeDocumentFile {
  value: TreeDocument;
  text: string;
}

/** Reads and checks a JSON tree file; a syntax or shape error names the file, the node and the fix. */
export function readTreeDocument(path: string): TreeDocumentFile {
  const text = readFileSync(path, 'utf8');
  return { value: parseTreeDocument(text, path), text };
}
