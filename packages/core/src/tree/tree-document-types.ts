import type { NodeType } from '../protocol/constants.js';

/** Version of the JSON tree format this library reads and writes (docs/tree-format.md). */
export const TREE_DOCUMENT_VERSION = 1;

/** The value of a tree document's `format` key. */
export const TREE_DOCUMENT_FORMAT = 'treeagent-tree';

/** Callbacks that may be written in the document as a constant value (the output they would return). */
export const CONSTANT_CALLBACKS = ['prompt', 'emit', 'query', 'responseFormat'] as const;

/** One node of a tree document: a node definition with callbacks referenced by name, never inline. */
export interface TreeDocumentNode {
  id: number;
  type: NodeType;
  parent?: number | null;
  /**
   * Callbacks by the name under which the document's `module` exports them:
   * `{ "after": "checkOrderStatus" }`. Behaviour stays in code; the document says which code runs where.
   */
  callbacks?: Record<string, string>;
  /** On a `component` node: the name of one of the document's `components` to instantiate here. */
  use?: string;
  [property: string]: unknown;
}

/** A reusable component of a document, instantiated by a component node's `"use": "<name>"`. */
export interface TreeDocumentComponent {
  nodes: TreeDocumentNode[];
}

/**
 * A tree as a JSON file (docs/tree-format.md): thresholds, chunks, messages, options and flags as
 * data; callbacks referenced by name from a TypeScript/JavaScript module beside it.
 *
 * @example
 * { "format": "treeagent-tree", "version": 1, "module": "./callbacks.ts",
 *   "nodes": [{ "id": 1, "type": "root" }, { "id": 2, "type": "agent", "parent": 1, "isPrimary": true,
 *     "callbacks": { "fallback": "apologise" } }] }
 */
export interface TreeDocument {
  $schema?: string;
  format?: typeof TREE_DOCUMENT_FORMAT;
  /** Format version; absent means 1 (the unversioned JSON of earlier releases reads the same). */
  version?: number;
  name?: string;
  /** The languages the tree speaks (`["it", "en"]`), the first the default (docs/multilingual-trees.md). */
  languages?: string[];
  /** Path of the module that exports the callbacks, relative to the document. */
  module?: string;
  components?: Record<string, TreeDocumentComponent>;
  nodes: TreeDocumentNode[];
}
