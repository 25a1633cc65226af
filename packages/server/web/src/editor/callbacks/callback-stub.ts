/** The callbacks the inspector can add a typed stub for: they need no value to return. */
export const STUB_CALLBACKS = ['before', 'after'] as const;
export type StubCallback = (typeof STUB_CALLBACKS)[number];

/** The exported type of each callback a stub is written for, by node type (`@treeagent/core`). */
const AFTER_TYPES: Record<string, string> = {
  empty: 'EmptyAfterCallback',
  emit: 'EmitAfterCallback',
  query: 'QueryAfterCallback',
  llm: 'LlmAfterCallback',
};

/** The callbacks a node of `type` can get a stub for, among those it supports. */
export function stubCallbacksOf(type: string, supported: readonly string[]): StubCallback[] {
  return STUB_CALLBACKS.filter(
    (callback) => supported.includes(callback) && (callback === 'before' || type in AFTER_TYPES),
  );
}

/** The type a stub of `callback` on a node of `type` is declared with. */
export function stubTypeOf(type: string, callback: StubCallback): string {
  return callback === 'before' ? 'BeforeCallback' : (AFTER_TYPES[type] ?? 'AfterCallback');
}

/**
 * A name for the callback from the node's name (`ask email` → `askEmailBefore`), else its id
 * (`node12Before`), that the module does not declare yet (`…Before2`, `…Before3`).
 */
export function stubName(
  node: { id: number; name?: string | undefined },
  callback: StubCallback,
  text: string,
): string {
  const words = (node.name ?? '')
    .normalize('NFD')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  const base = words.length
    ? words
        .map((word, index) =>
          index === 0 ? word.toLowerCase() : word[0]!.toUpperCase() + word.slice(1).toLowerCase(),
        )
        .join('')
    : `node${node.id}`;
  const stem = `${/^[0-9]/.test(base) ? `node${base}` : base}${callback[0]!.toUpperCase()}${callback.slice(1)}`;
  let name = stem;
  for (let counter = 2; new RegExp(`\\b${name}\\b`).test(text); counter++) name = `${stem}${counter}`;
  return name;
}

/**
 * `text` with a typed stub of `callback` named `name` appended for the node, and its type imported
 * from `@treeagent/core` (added to the module's `import type { … } from '@treeagent/core'`, or a new
 * import at the top); `line` is the 1-based line of the stub's `export`.
 */
export function withStub(
  text: string,
  stub: {
    name: string;
    callback: StubCallback;
    nodeType: string;
    nodeId: number;
    nodeName?: string | undefined;
  },
): { text: string; line: number } {
  const type = stubTypeOf(stub.nodeType, stub.callback);
  const imported = withTypeImport(text, type);
  const label = stub.nodeName ? ` "${stub.nodeName}"` : '';
  const body =
    stub.callback === 'before'
      ? `export const ${stub.name}: ${type} = async (_self, _context) => {\n  // Runs before node ${stub.nodeId} is executed: read or set context.sessionState here.\n};\n`
      : `export const ${stub.name}: ${type} = async (_self, _context, _special, _links) => {\n  // Return { nodeTarget: links.<name> } to go on elsewhere, { outcome: 'failure' } to climb back, or nothing.\n  return undefined;\n};\n`;
  const head = imported.endsWith('\n') ? imported : `${imported}\n`;
  const comment = `\n/** The ${stub.callback} callback of node ${stub.nodeId}${label}. */\n`;
  return { text: `${head}${comment}${body}`, line: `${head}${comment}`.split('\n').length };
}

/** `text` importing the type `name` from `@treeagent/core` (unchanged when it already does). */
export function withTypeImport(text: string, name: string): string {
  const existing = /import\s+type\s*\{([^}]*)\}\s*from\s*['"]@treeagent\/core['"];?/.exec(text);
  if (existing) {
    const names = existing[1]!
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    if (names.includes(name)) return text;
    const sorted = [...names, name].sort((a, b) => a.localeCompare(b));
    const replacement = `import type {\n${sorted.map((item) => `  ${item},`).join('\n')}\n} from '@treeagent/core';`;
    return text.slice(0, existing.index) + replacement + text.slice(existing.index + existing[0].length);
  }
  return `import type { ${name} } from '@treeagent/core';\n${text.startsWith('\n') ? '' : '\n'}${text}`;
}
