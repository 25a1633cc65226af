import type { TreeDocument } from '@treeagent/core/document';
import type { TreeEditorSource } from '../editor/tree-editor-source.js';
import { operatorDirectory } from '../operators/operator-accounts.js';
import { testApp } from './fixtures.js';
import { loginOperator, testOperatorAccounts } from './operators.js';
import { SHOP_TOPICS } from './staff-pages.js';

/**
 * The tree the editor's route tests edit: shipping (3) and returns (4) under the primary agent (2),
 * whose fallback callback `sorry` (in `EDITOR_EXPORTS`) routes to shipping.
 */
export const EDITOR_TREE: TreeDocument = {
  format: 'treeagent-tree',
  version: 1,
  name: 'shop',
  nodes: [
    { id: 1, type: 'root', defaultSimilarityThreshold: 0.2 },
    { id: 2, parent: 1, type: 'agent', isPrimary: true, callbacks: { fallback: 'sorry' } },
    ...SHOP_TOPICS,
  ],
};

/** The callbacks module of `EDITOR_TREE`. */
export const EDITOR_EXPORTS = { sorry: () => ({ nodeTarget: 3 }) };

/** A request with `body` as JSON (POST unless `method`), and `headers`. */
export function jsonRequest(
  body: unknown,
  method = 'POST',
  headers: Record<string, string> = {},
): RequestInit {
  return { method, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

/**
 * An app serving `editor` with operator logins (`testOperatorAccounts`) and the API key
 * `sk-admin-key`: the editor is for admins. `key` is the key's header; `login(id)` logs an operator
 * in (`anna` is an admin, `bruno` an operator) and returns the token.
 */
export async function editorBehindLogins(editor: TreeEditorSource) {
  const directory = operatorDirectory(await testOperatorAccounts());
  const { app } = testApp({ apiKeys: ['sk-admin-key'], editor, operators: { directory } });
  const key = { Authorization: 'Bearer sk-admin-key' };
  return { app, key, login: (id: 'anna' | 'bruno') => loginOperator(app, id, key) };
}
