import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, isAbsolute, relative } from 'node:path';
import { formatTreeDocument, type TreeDocument } from '@treeagent/core/document';
import type { ExtraChunks } from '@treeagent/core/evaluation';
import { ApiError, invalidRequest } from '../errors/api-error.js';
import { writeFileAtomic } from '../files/write-file-atomic.js';

/** The chunks file of a TypeScript or JavaScript tree: `tree.ts` → `tree.chunks.json`, next to it. */
export function chunksFileOf(treeFile: string): string {
  return `${treeFile.slice(0, treeFile.length - extname(treeFile).length)}.chunks.json`;
}

/**
 * A written file as staff see it: relative to the server's working directory (`data/utterances.tsv`),
 * or its name alone when it lies outside: the server's absolute paths are not shown to staff.
 */
export function shownFile(file: string, cwd = process.cwd()): string {
  const inside = relative(cwd, file);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : basename(file);
}

/** What an "add as chunks" wrote, and where. */
export interface ChunksWritten {
  /** The file written: the JSON tree itself, or the chunks file of a TypeScript tree. */
  file: string;
  kind: 'json-tree' | 'chunks-file';
  /** Texts added (those the node already had are skipped). */
  added: string[];
}

/** An "add as chunks" read and ready: what it would add, and `write()` to do it. */
export interface ChunksEdit extends ChunksWritten {
  /** Writes the file (nothing when nothing is added). */
  write(): void;
}

/**
 * Adds `texts` as chunks of node `nodeId` (docs/analytics.md): into a JSON tree file directly; for
 * a TypeScript or JavaScript tree into its chunks file (`<tree>.chunks.json`), which `treeagent`
 * merges into the tree when it loads it (and `dev` reloads on change). The file is replaced
 * atomically (written beside, then renamed), so a crash never leaves half a tree, and keeps its
 * permissions (a new chunks file takes the tree file's).
 */
export function addChunksToTree(treeFile: string, nodeId: number, texts: readonly string[]): ChunksWritten {
  const { write, ...written } = planChunks(treeFile, nodeId, texts);
  write();
  return written;
}

/** `addChunksToTree` in two steps: read and plan, then `write()` (what is added is audited between). */
export function planChunks(treeFile: string, nodeId: number, texts: readonly string[]): ChunksEdit {
  if (extname(treeFile).toLowerCase() === '.json') {
    const json = readJson<TreeDocument>(treeFile);
    const node = json.nodes?.find((candidate) => candidate.id === nodeId);
    if (!node) throw invalidRequest(`There is no node ${nodeId} in the tree file ${treeFile}.`, { nodeId });
    const existing = (node.chunks as (string | { text: string })[] | undefined) ?? [];
    const added = newTexts(
      existing.map((chunk) => (typeof chunk === 'string' ? chunk : chunk.text)),
      texts,
    );
    return {
      file: treeFile,
      kind: 'json-tree',
      added,
      write: () => {
        if (!added.length) return;
        node.chunks = [...existing, ...added];
        // The document's own stable layout (one chunk per line), so the change diffs as the added lines.
        writeFileAtomic(treeFile, formatTreeDocument(json));
      },
    };
  }
  const file = chunksFileOf(treeFile);
  const extra: ExtraChunks = existsSync(file) ? readJson<ExtraChunks>(file) : { chunks: {} };
  extra.chunks ??= {};
  const current = extra.chunks[String(nodeId)] ?? [];
  const added = newTexts(current, texts);
  return {
    file,
    kind: 'chunks-file',
    added,
    write: () => {
      if (!added.length) return;
      extra.chunks[String(nodeId)] = [...current, ...added];
      // The chunks are the tree's: a new chunks file is as readable as the tree file, no more.
      writeFileAtomic(file, `${JSON.stringify(extra, null, 2)}\n`, { mode: statSync(treeFile).mode & 0o777 });
    },
  };
}

/**
 * Appends labelled utterances to the set `treeagent eval` and `treeagent fit` read: `.jsonl` as
 * `[text, label]` lines, `.json` as one array, anything else as `text<TAB>label` (whitespace in the
 * text folded to spaces so a line stays one utterance).
 */
export function appendUtterances(file: string, pairs: readonly (readonly [string, string])[]): number {
  const extension = extname(file).toLowerCase();
  if (extension === '.json') {
    const existing = existsSync(file) ? readJson<[string, string][]>(file) : [];
    writeFileAtomic(file, `${JSON.stringify([...existing, ...pairs], null, 2)}\n`);
    return pairs.length;
  }
  const lines = pairs.map(([text, label]) =>
    extension === '.jsonl' ? JSON.stringify([text, label]) : `${text.replace(/\s+/g, ' ').trim()}\t${label}`,
  );
  const separator =
    existsSync(file) && !readFileSync(file, 'utf8').endsWith('\n') && readFileSync(file, 'utf8').length > 0
      ? '\n'
      : '';
  appendFileSync(file, `${separator}${lines.join('\n')}\n`);
  return pairs.length;
}

function newTexts(existing: readonly string[], texts: readonly string[]): string[] {
  const known = new Set(existing);
  return texts.filter((text) => text.trim() !== '' && !known.has(text) && Boolean(known.add(text)));
}

function readJson<T>(file: string): T {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (error) {
    throw new ApiError(
      409,
      'CONFLICT',
      `${file} could not be read as JSON (${(error as Error).message}); fix or remove it, then retry.`,
      { cause: error },
    );
  }
}
