import type { NodeDefinition } from '@treeagent/core';

/** Something of a tree that its JSON form cannot hold, by node and field. */
export interface ExportLoss {
  nodeId: number;
  /** The field's path in the node, e.g. `emit.message.content` or `chunks[2]`. */
  field: string;
  /** What the value was and what the JSON holds instead. */
  problem: string;
}

/**
 * What `definitionToDocument` would change or drop in `node`: the document holds data as JSON (a
 * callback at the top of a node becomes a name in `callbacks`, a tool its schema and a name), so a
 * function inside a data field, a `Date`, a `RegExp`, a `Map`, a `Set`, a class instance, a number
 * JSON has no form for (NaN, Infinity), `undefined` in an array, a symbol or a bigint is lost.
 */
export function exportLosses(node: NodeDefinition): ExportLoss[] {
  const losses: ExportLoss[] = [];
  for (const [key, value] of Object.entries(node)) {
    // Carried by name (callbacks), as a schema and a name (tools), or expanded already (use).
    if (typeof value === 'function' || key === 'tools' || key === 'use' || value === undefined) continue;
    walk(value, key, (field, problem) => losses.push({ nodeId: node.id, field, problem }));
  }
  return losses;
}

function walk(value: unknown, path: string, report: (field: string, problem: string) => void): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) report(path, `${value} has no JSON form: the document holds null`);
    return;
  }
  if (typeof value === 'function') {
    report(path, "a function inside data is dropped (only a node's own callbacks are carried, by name)");
    return;
  }
  if (typeof value === 'undefined') {
    report(path, 'undefined in an array becomes null');
    return;
  }
  if (typeof value === 'symbol' || typeof value === 'bigint') {
    report(path, `a ${typeof value} has no JSON form`);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      walk(item, `${path}[${index}]`, report);
    });
    return;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    const kind = (value as object).constructor?.name ?? 'object';
    const becomes =
      value instanceof Date
        ? 'its ISO string'
        : kind === 'Map' || kind === 'Set' || kind === 'RegExp'
          ? '{}'
          : 'its own enumerable fields';
    report(path, `a ${kind} is not plain data: the document holds ${becomes}`);
    return;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (item === undefined) continue;
    walk(item, `${path}.${key}`, report);
  }
}
