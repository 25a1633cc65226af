/**
 * `@treeagent/core/document`: trees as data (docs/tree-format.md) — the tree document of the editor
 * and of JSON trees, its schema, parsing and validation, conversion to and from a definition with
 * named callbacks, and the older `TreeJSON` form.
 */

export { formatTreeDocument } from './tree/format-tree-document.js';
export { type TreeSource, treeCallback } from './tree/tree-callback.js';
export {
  definitionToDocument,
  documentToDefinition,
  type NameCallback,
  referencedCallbacks,
} from './tree/tree-document.js';
export { TREE_DOCUMENT_SCHEMA } from './tree/tree-document-schema.js';
export {
  CONSTANT_CALLBACKS,
  TREE_DOCUMENT_FORMAT,
  TREE_DOCUMENT_VERSION,
  type TreeDocument,
  type TreeDocumentComponent,
  type TreeDocumentNode,
} from './tree/tree-document-types.js';
export { type CallbackMap, definitionFromJSON, definitionToJSON, type TreeJSON } from './tree/tree-json.js';
export { parseTreeDocument, validateTreeDocument } from './tree/validate-tree-document.js';
