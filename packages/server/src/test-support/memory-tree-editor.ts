import { createHash } from 'node:crypto';
import { defineTree } from '@treeagent/core';
import { documentToDefinition, formatTreeDocument, type TreeDocument } from '@treeagent/core/document';
import type { LabelledUtterance } from '@treeagent/core/evaluation';
import { TreeEditConflict, type TreeEditorSource } from '../editor/tree-editor-source.js';

/** A `TreeEditorSource` over a text held in memory (the CLI's is over a file): for the server's tests. */
export function memoryTreeEditor(
  document: TreeDocument,
  exports: Record<string, unknown> = {},
  utterances: LabelledUtterance[] = [],
): TreeEditorSource & { text: string } {
  const versionOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
  const source = {
    text: formatTreeDocument(document),
    agentOptions: {},
    read: async () => ({
      path: '/memory/tree.json',
      version: versionOf(source.text),
      document: JSON.parse(source.text) as TreeDocument,
      editable: true,
      readOnlyReason: null,
    }),
    version: async () => versionOf(source.text),
    callbackNames: async () => Object.keys(exports).filter((name) => typeof exports[name] === 'function'),
    build: async (draft: TreeDocument) => defineTree(documentToDefinition(draft, exports)),
    write: async (draft: TreeDocument, baseVersion: string, options: { force?: boolean } = {}) => {
      if (versionOf(source.text) !== baseVersion && !options.force)
        throw new TreeEditConflict('/memory/tree.json', versionOf(source.text));
      source.text = formatTreeDocument(draft);
      return versionOf(source.text);
    },
    utterances: async () => utterances,
  };
  return source;
}
