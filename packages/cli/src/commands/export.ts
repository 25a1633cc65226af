import { existsSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, relative, resolve } from 'node:path';
import { TreeAgentError } from '@treeagent/core';
import { definitionToDocument, formatTreeDocument, type TreeDocument } from '@treeagent/core/document';
import { exportLosses } from '../export-losses.js';
import { factoryVariants } from '../export-variants.js';
import { loadTree } from '../load-tree.js';
import type { Output } from '../output.js';
import { defineCommand } from './command-definition.js';

export interface ExportOptions {
  config?: string;
  /** The only format: a JSON tree document (docs/tree-format.md). */
  json?: boolean;
  /** Where to write the document. Default: the tree's path with `.json`. */
  out?: string;
  /** Overwrite existing files. */
  force?: boolean;
}

/** What `exportTree` wrote (or `exportTexts` would write). */
export interface ExportResult {
  document: TreeDocument;
  /** The document's text, as `formatTreeDocument` lays it out. */
  documentText: string;
  /** The callback module's text, or null when the tree has no callbacks. */
  moduleText: string | null;
  documentPath: string;
  /** The callback module, or null when the tree has no callbacks. */
  modulePath: string | null;
  /** Callbacks that are named exports of the tree module, referenced by that name. */
  exported: string[];
  /** Callbacks that were inline functions, given a generated name in the module. */
  generated: string[];
  /** What the JSON form cannot carry or leaves out, by node and field: printed as warnings. */
  warnings: string[];
}

/**
 * Converts a TypeScript or JavaScript tree once to the JSON form: the document (every threshold,
 * chunk, message, option and flag as data) and a callback module beside it that exports each
 * callback by name. Callbacks the tree module already exports by name keep that name; inline ones
 * get a name from their node and are taken from the tree module with `treeCallback`, so the JSON
 * tree runs exactly the code the TypeScript one did. A tree factory is called with the configured
 * models (the JSON holds that tree) and again with every model present: each node only one of the two
 * builds, and each value JSON cannot carry (by node and field), is a warning.
 */
export async function exportTree(treePath: string, options: ExportOptions): Promise<ExportResult> {
  const result = await exportTexts(treePath, options);
  for (const path of [result.documentPath, result.modulePath]) {
    if (path && existsSync(path) && !options.force)
      throw new TreeAgentError(
        'INVALID_INPUT',
        `${path} exists. Pass --force to overwrite it, or --out <file> to write elsewhere.`,
      );
  }
  writeFileSync(result.documentPath, result.documentText);
  if (result.modulePath && result.moduleText) writeFileSync(result.modulePath, result.moduleText);
  return result;
}

/** What `exportTree` would write, without writing it. */
export async function exportTexts(treePath: string, options: ExportOptions): Promise<ExportResult> {
  const source = resolve(treePath);
  if (extname(source) === '.json')
    throw new TreeAgentError(
      'INVALID_INPUT',
      `${source} is already a JSON tree: export reads a .ts or .js tree.`,
    );
  const loaded = await loadTree(source, options.config ? { config: options.config } : {});
  const warnings: string[] = [];
  const variants = await factoryVariants(loaded);
  // The tree as loaded (the configured models); a node the factory builds only in the other variant is named.
  const tree = loaded.tree;
  const label = (node: { id: number; type: string; name?: string | undefined }) =>
    `node ${node.id} (${node.type}${node.name ? ` "${node.name}"` : ''})`;
  for (const node of variants?.onlyWithModels ?? [])
    warnings.push(
      `${label(node)}: the tree factory builds it only when a model is configured, and none is, so the JSON does not hold it. Configure the model (treeagent.config.json beside the tree, --config or the environment: docs/models.md) and export again to include it.`,
    );
  for (const node of variants?.onlyWithoutModels ?? [])
    warnings.push(
      `${label(node)}: the tree factory builds it only when no model is configured (an offline variant); the JSON holds it, and not the nodes that replace it when a model is configured.`,
    );
  for (const node of tree.definition.nodes)
    for (const loss of exportLosses(node))
      warnings.push(
        `node ${loss.nodeId}, field ${loss.field}: ${loss.problem}. Put it in a callback, or make it plain data.`,
      );
  const documentPath = resolve(options.out ?? source.replace(/\.[cm]?[jt]sx?$/, '.json'));
  const typescript = /\.[cm]?tsx?$/.test(source);
  const modulePath = documentPath.replace(/\.json$/, '') + (typescript ? '.callbacks.ts' : '.callbacks.js');
  const byFunction = new Map<unknown, string>();
  for (const [name, value] of Object.entries(loaded.exports))
    if (typeof value === 'function' && name !== 'default' && !byFunction.has(value))
      byFunction.set(value, name);
  const exported = new Set<string>();
  const generated: { name: string; nodeId: number; key: string }[] = [];
  const taken = new Set(byFunction.values());
  const names = new Map([...tree.definition.nodes].map((node) => [node.id, node.name] as const));
  const document = definitionToDocument(tree.definition, {
    module: `./${basename(modulePath)}`,
    nameOf: (callback, nodeId, key) => {
      const known = byFunction.get(callback);
      if (known) {
        exported.add(known);
        return known;
      }
      const name = uniqueName(identifier(names.get(nodeId), nodeId, key), taken);
      generated.push({ name, nodeId, key });
      return name;
    },
  });
  if (!exported.size && !generated.length) delete document.module;
  return {
    document,
    documentText: formatTreeDocument(document),
    moduleText: document.module
      ? callbackModule(source, modulePath, loaded.exports, [...exported], generated)
      : null,
    documentPath,
    modulePath: document.module ? modulePath : null,
    exported: [...exported],
    generated: generated.map((item) => item.name),
    warnings,
  };
}

/** `treeagent export <tree> --json`: writes the JSON form of a code-defined tree. */
export async function exportCommand(treePath: string, options: ExportOptions, out: Output): Promise<number> {
  const result = await exportTree(treePath, options);
  for (const warning of result.warnings) out.error(`warning ${warning}`);
  out.log(`Wrote ${result.documentPath} (${result.document.nodes.length} nodes).`);
  if (result.modulePath) {
    out.log(
      `Wrote ${result.modulePath}: ${result.exported.length + result.generated.length} callbacks by name (${result.generated.length} taken from the tree module by node id: move their code into it over time).`,
    );
  }
  out.log(
    `Run it with: treeagent dev ${relative(process.cwd(), result.documentPath) || result.documentPath}`,
  );
  return 0;
}

function callbackModule(
  source: string,
  modulePath: string,
  exports: Record<string, unknown>,
  exported: string[],
  generated: { name: string; nodeId: number; key: string }[],
): string {
  let specifier = relative(dirname(modulePath), source).replace(/\\/g, '/');
  if (!specifier.startsWith('.')) specifier = `./${specifier}`;
  specifier = specifier.replace(/\.([cm]?)tsx?$/, '.$1js');
  const sourceExport = exports.default !== undefined ? 'default' : 'tree';
  const lines = [
    `// The callbacks of ${basename(modulePath).replace(/\.callbacks\.[jt]s$/, '.json')}, by name: written by \`treeagent export --json\` from ${basename(source)}.`,
    '// The JSON holds the data (chunks, thresholds, messages, flags); this module holds the behaviour.',
    '// Callbacks that were inline functions are still taken from the tree module by node id: move their code here over time.',
  ];
  if (generated.length) {
    lines.push("import { treeCallback } from '@treeagent/core/document';");
    lines.push(
      sourceExport === 'default'
        ? `import source from '${specifier}';`
        : `import { tree as source } from '${specifier}';`,
    );
  }
  if (exported.length) lines.push(`export { ${exported.sort().join(', ')} } from '${specifier}';`);
  lines.push('');
  for (const item of generated)
    lines.push(`export const ${item.name} = treeCallback(source, ${item.nodeId}, '${item.key}');`);
  return `${lines.join('\n')}\n`;
}

/** `shippingAfter` for the `after` of node "shipping", `node12After` for a node without a name. */
function identifier(name: string | undefined, nodeId: number, key: string): string {
  const words = (name ?? '')
    .normalize('NFD')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  const base = words.length
    ? words
        .map((word, index) => (index ? capital(word) : word.charAt(0).toLowerCase() + word.slice(1)))
        .join('')
    : `node${nodeId}`;
  // `tools.orderStatus` → `ToolsOrderStatus`.
  const suffix = key
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map(capital)
    .join('');
  return `${/^[0-9]/.test(base) ? `node${base}` : base}${suffix}`;
}

function capital(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let index = 2; taken.has(candidate); index++) candidate = `${name}${index}`;
  taken.add(candidate);
  return candidate;
}

/** `treeagent export`: its help, arguments and options (the command table, `command-table.ts`). */
export const exportDefinition = defineCommand({
  name: 'export',
  description:
    'Convert a TypeScript or JavaScript tree once to the JSON form (docs/tree-format.md): the tree as data in <tree>.json, its callbacks by name in <tree>.callbacks.ts beside it.',
  arguments: [{ name: '<tree>', description: 'tree file (.ts or .js)' }],
  options: [
    { flags: '--json', description: 'write the JSON tree document (the only format, and the default)' },
    { flags: '--out <file>', description: 'where to write the document (default: the tree path with .json)' },
    { flags: '--force', description: 'overwrite existing files' },
    { flags: '--config <file>', description: 'model configuration' },
  ],
  run: ([tree], options, out) => exportCommand(tree, options, out),
});
