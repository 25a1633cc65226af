import { CALLBACKS_BY_TYPE } from './constants.js';
import type { ComponentDefinition, NodeDefinition, TreeDefinition } from './node-definition.js';
import { aNode } from './node-type-article.js';
import { TOOL_PREFIX, type ToolSet, toolJsonSchema } from './tool-definition.js';
import {
  TREE_DOCUMENT_FORMAT,
  TREE_DOCUMENT_VERSION,
  type TreeDocument,
  type TreeDocumentNode,
} from './tree-document-types.js';
import type { TreeProblem } from './tree-problem.js';
import { TreeValidationError } from './tree-validation-error.js';

/**
 * Builds the tree definition a document describes: each `callbacks` name is looked up among
 * `exports` (the module's named exports) and `use` names among the document's `components`. Every
 * problem is collected and thrown at once as a `TreeValidationError` naming the node and the fix.
 * Pass the result to `defineTree`.
 *
 * @example
 * const definition = documentToDefinition(JSON.parse(text), await import('./callbacks.js'));
 * const tree = defineTree(definition);
 */
export function documentToDefinition(
  document: TreeDocument,
  exports: Record<string, unknown> = {},
): TreeDefinition {
  const problems: TreeProblem[] = [];
  if (document.version !== undefined && document.version !== TREE_DOCUMENT_VERSION) {
    problems.push({
      message: `the document is version ${JSON.stringify(document.version)} of the tree format; this release reads version ${TREE_DOCUMENT_VERSION}.`,
      fix: `Upgrade @treeagent/core, or write "version": ${TREE_DOCUMENT_VERSION}.`,
    });
  }
  const names = Object.keys(exports).filter((name) => typeof exports[name] === 'function');
  /** `callbacks["tools.<name>"]`: the function that runs the document's tool `<name>`. */
  const attachTool = (
    node: TreeDocumentNode,
    definition: Record<string, unknown>,
    toolName: string,
    name: string,
    where: string,
  ) => {
    const tools = (definition.tools ?? {}) as Record<string, Record<string, unknown>>;
    const tool = tools[toolName];
    if (typeof tool !== 'object' || tool === null) {
      problems.push({
        nodeId: node.id,
        message: `${where}callbacks.${TOOL_PREFIX}${toolName} is "${name}", but the node has no tool "${toolName}".`,
        fix: `Describe it under "tools": { "${toolName}": { "description": …, "parameters": { "type": "object", … } } }, or remove the callback.`,
      });
    } else if (typeof exports[name] !== 'function') {
      problems.push({
        nodeId: node.id,
        message: `${where}callbacks.${TOOL_PREFIX}${toolName} is "${name}", which the module ${document.module ? `"${document.module}" ` : ''}does not export as a function.`,
        fix: document.module
          ? `Export a function named ${name} from ${document.module} (self, context, { input, signal }) => result.`
          : `Set "module" on the document to the file that exports ${name}.`,
      });
    } else definition.tools = { ...tools, [toolName]: { ...tool, execute: exports[name] } };
  };
  const components = new Map<string, ComponentDefinition>();
  const convert = (node: TreeDocumentNode, where: string): NodeDefinition => {
    const { callbacks, use, ...rest } = node;
    const definition: Record<string, unknown> = { ...rest };
    for (const [key, name] of Object.entries(callbacks ?? {})) {
      const allowed = CALLBACKS_BY_TYPE[node.type] ?? [];
      if (key.startsWith(TOOL_PREFIX) && (node.type === 'llm' || node.type === 'emit')) {
        attachTool(node, definition, key.slice(TOOL_PREFIX.length), name, where);
        continue;
      }
      if (!allowed.includes(key)) {
        problems.push({
          nodeId: node.id,
          message: `${where}${aNode(node.type)} node has no "${key}" callback (callbacks.${key} is "${name}").`,
          fix: allowed.length
            ? `Remove it; ${aNode(node.type)} node supports: ${allowed.join(', ')}.`
            : `Remove it; ${aNode(node.type)} node has no callbacks.`,
        });
      } else if (definition[key] !== undefined) {
        problems.push({
          nodeId: node.id,
          message: `${where}"${key}" is both a constant and the callback "${name}".`,
          fix: `Keep one: remove "${key}" or callbacks.${key}.`,
        });
      } else if (typeof exports[name] !== 'function') {
        problems.push({
          nodeId: node.id,
          message: `${where}callbacks.${key} is "${name}", which the module ${document.module ? `"${document.module}" ` : ''}does not export as a function.`,
          fix: document.module
            ? `Export a function named ${name} from ${document.module}${names.length ? ` (it exports: ${names.join(', ')})` : ''}, or pick one of its exports.`
            : `Set "module" on the document to the file that exports ${name}.`,
        });
      } else definition[key] = exports[name];
    }
    const tools = definition.tools as Record<string, Record<string, unknown>> | undefined;
    for (const [toolName, tool] of Object.entries(tools ?? {})) {
      if (typeof tool === 'object' && tool !== null && tool.execute === undefined)
        problems.push({
          nodeId: node.id,
          message: `${where}tool "${toolName}" has no function: callbacks has no "${TOOL_PREFIX}${toolName}".`,
          fix: `Add "${TOOL_PREFIX}${toolName}": "<export name>" to the node's callbacks, naming the module's function that runs the tool.`,
        });
    }
    if (use !== undefined) {
      const component = components.get(use);
      if (!component) {
        problems.push({
          nodeId: node.id,
          message: `${where}"use" is "${use}", which is not one of the document's components.`,
          fix: `Add "${use}" under "components", or use one of: ${[...components.keys()].join(', ') || '(none)'}.`,
        });
      } else definition.use = component;
    }
    return definition as unknown as NodeDefinition;
  };
  // Components first (in order: a component may use one defined before it).
  for (const [name, component] of Object.entries(document.components ?? {})) {
    components.set(name, {
      name,
      nodes: (component.nodes ?? []).map((node) =>
        convert(node, `component "${name}": `),
      ) as ComponentDefinition['nodes'],
    });
  }
  const nodes = (document.nodes ?? []).map((node) => convert(node, ''));
  if (problems.length) throw new TreeValidationError(problems);
  return {
    ...(document.name ? { name: document.name } : {}),
    ...(document.languages ? { languages: document.languages } : {}),
    nodes,
  };
}

/** How `definitionToDocument` names a callback it finds on a node. */
export type NameCallback = (callback: (...args: never[]) => unknown, nodeId: number, key: string) => string;

/**
 * The document of a tree definition: every value as data, every callback replaced by the name
 * `nameOf` gives it (collected in `callbacks` of the node). Components used with `use` must be
 * expanded first (a `Tree`'s `definition` already is).
 */
export function definitionToDocument(
  definition: TreeDefinition,
  options: { nameOf: NameCallback; module?: string },
): TreeDocument {
  const nodes = definition.nodes.map((node) => {
    const out: TreeDocumentNode = { id: node.id, type: node.type };
    const callbacks: Record<string, string> = {};
    for (const [key, value] of Object.entries(node)) {
      if (value === undefined || key === 'use') continue;
      if (key === 'tools') {
        out.tools = toolsToDocument(node.id, value as ToolSet, callbacks, options.nameOf);
        continue;
      }
      if (typeof value === 'function')
        callbacks[key] = options.nameOf(value as (...args: never[]) => unknown, node.id, key);
      else out[key] = JSON.parse(JSON.stringify(value));
    }
    if (Object.keys(callbacks).length) out.callbacks = callbacks;
    return out;
  });
  return {
    format: TREE_DOCUMENT_FORMAT,
    version: TREE_DOCUMENT_VERSION,
    ...(definition.name ? { name: definition.name } : {}),
    ...(definition.languages ? { languages: [...definition.languages] } : {}),
    ...(options.module ? { module: options.module } : {}),
    nodes,
  };
}

/** A node's tools as data (description, JSON schema, time limit); each `execute` named in `callbacks`. */
function toolsToDocument(
  nodeId: number,
  tools: ToolSet,
  callbacks: Record<string, string>,
  nameOf: NameCallback,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    out[name] = {
      ...(tool.description ? { description: tool.description } : {}),
      parameters: JSON.parse(JSON.stringify(toolJsonSchema(tool))),
      ...(tool.timeoutMs === undefined ? {} : { timeoutMs: tool.timeoutMs }),
    };
    callbacks[`${TOOL_PREFIX}${name}`] = nameOf(
      tool.execute as (...args: never[]) => unknown,
      nodeId,
      `${TOOL_PREFIX}${name}`,
    );
  }
  return out;
}

/** Every callback name a document references (nodes and components), for listing and checks. */
export function referencedCallbacks(document: TreeDocument): string[] {
  const names = new Set<string>();
  const all = [
    ...(document.nodes ?? []),
    ...Object.values(document.components ?? {}).flatMap((component) => component.nodes ?? []),
  ];
  for (const node of all) for (const name of Object.values(node.callbacks ?? {})) names.add(name);
  return [...names];
}
