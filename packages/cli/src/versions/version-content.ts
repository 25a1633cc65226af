import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, resolve } from 'node:path';
import { TreeAgentError } from '@treeagent/core';
import type { VersionContent } from '@treeagent/core/adapter';
import { codeTreeDocument, loadTree } from '../load-tree.js';

/** What a version of a tree file holds, before it is stored: the tree's name, its document and callbacks. */
export type FileContent = Pick<VersionContent, 'tree' | 'document' | 'callbacks'>;

/**
 * The content of a tree file as a version records it. A JSON tree: the file's text, and its
 * callbacks module's text (`module`). A tree in code: the document `treeagent export --json` would
 * write, and the text of every local file the tree was loaded from (a change to any is a new version).
 */
export async function fileContentOf(
  treePath: string,
  options: { config?: string } = {},
): Promise<FileContent> {
  const path = resolve(treePath);
  if (!existsSync(path)) throw new TreeAgentError('INVALID_INPUT', `The tree file ${path} does not exist.`);
  if (extname(path) === '.json') {
    const document = readFileSync(path, 'utf8');
    const parsed = JSON.parse(document) as { name?: unknown; module?: unknown };
    const module = typeof parsed.module === 'string' ? resolve(dirname(path), parsed.module) : null;
    return {
      tree: typeof parsed.name === 'string' ? parsed.name : basename(path, '.json'),
      document,
      callbacks: module && existsSync(module) ? readFileSync(module, 'utf8') : null,
    };
  }
  const loaded = await loadTree(path, options);
  const document = codeTreeDocument(loaded);
  return {
    tree: loaded.tree.name,
    document: `${JSON.stringify(document, null, 2)}\n`,
    callbacks: loaded.files.map((file) => `// ${basename(file)}\n${readFileSync(file, 'utf8')}`).join('\n'),
  };
}
