/**
 * The layering of the repository as rules, checked over the TypeScript import graph — type-only
 * imports included, which `npm run cycles` (dpdm with --transform) does not see. `npm run layers`
 * runs the check (it is part of `npm run check`); docs/architecture.md's dependency table is
 * generated from `CORE_LAYERS` (`npm run layers -- --write`), and the check fails when they differ.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** One folder of `packages/core/src` and the folders its source files may import. */
export interface Layer {
  folder: string;
  what: string;
  mayImport: readonly string[];
}

/**
 * The folders of `packages/core/src`, from the bottom up: a folder may import only the folders it
 * lists (and itself). Tests (`*.test.ts`, `*.type-test.ts`) and `test-support/` are exempt; the
 * entry points at the root of `src/` (`index.ts`, `client.ts`, `filter.ts`, …) may import anything.
 */
export const CORE_LAYERS: readonly Layer[] = [
  {
    folder: 'protocol',
    what: "the types a turn exchanges with callers, stores and callbacks: events and output, output message, history entry, explore constraints data, Qdrant's filter types, file metadata, retrieved chunk, chunk id, JSON schema, constants",
    mayImport: [],
  },
  {
    folder: 'errors',
    what: "`TreeAgentError`: stable codes, typed details per code, the failed turn's events",
    mayImport: ['protocol'],
  },
  {
    folder: 'filter',
    what: "Qdrant's filter model: validation, one compiled evaluator shared by exploration and vector stores",
    mayImport: ['errors', 'protocol'],
  },
  {
    folder: 'embedding',
    what: 'contract `Embedder`, `EmbeddingCache`; vector math, the hashed and concat embedders, the file cache',
    mayImport: ['errors', 'protocol'],
  },
  { folder: 'model', what: 'contract `LanguageModel`', mayImport: ['errors', 'protocol'] },
  {
    folder: 'privacy',
    what: 'personal data redaction: the detectors, `Redactor`, redacting a commit',
    mayImport: ['errors', 'protocol'],
  },
  {
    folder: 'analytics',
    what: 'turn facts (`turnFactOf`), contract `AnalyticsStore`, the report SQL the SQLite and PostgreSQL stores share',
    mayImport: ['errors', 'protocol'],
  },
  {
    folder: 'handoff',
    what: "the stores a server keeps around the engine's handoff: contracts `HandoffQueue`, `AuditLog`, `OperatorSessions`, `EventBus` and their in-memory references, the in-memory `HandoffOutbox`",
    mayImport: ['errors', 'protocol'],
  },
  {
    folder: 'channel',
    what: 'messaging channels (docs/channels.md): contract `Channel`, the in-memory `ChannelStore` (identities, the outbox), options as buttons or a numbered list',
    mayImport: ['errors', 'protocol'],
  },
  {
    folder: 'knowledge',
    what: 'contract `SourceStore` (knowledge sources and the pages read from them) and its in-memory reference',
    mayImport: ['errors', 'protocol'],
  },
  {
    folder: 'versions',
    what: 'contract `VersionStore` (tree versions, environments, publish history and gates, docs/versions.md), its in-memory reference, version hashes, diffs and the rollback target',
    mayImport: ['errors', 'protocol'],
  },
  {
    folder: 'session',
    what: 'contract `SessionStore`, the in-memory store, `KeyedMutex`',
    mayImport: ['errors', 'protocol', 'handoff', 'channel'],
  },
  {
    folder: 'vector',
    what: 'contract `VectorStore`, the in-memory store',
    mayImport: ['errors', 'filter', 'protocol', 'embedding'],
  },
  {
    folder: 'files',
    what: 'contract `FileStore`, in-memory and local stores, the chunk-and-count bookkeeping the SQLite and PostgreSQL stores share, the File Agent',
    mayImport: ['errors', 'protocol'],
  },
  { folder: 'memory', what: 'the Memory Agent (lazy history)', mayImport: ['errors', 'protocol'] },
  {
    folder: 'context',
    what: 'the `Context` handed to callbacks: `SessionState`, `Blacklist`, `ExploreStrategy`',
    mayImport: ['errors', 'filter', 'protocol', 'files', 'memory'],
  },
  {
    folder: 'tree',
    what: 'the definition types, `defineTree` (validation → component expansion → flattening → depth-first chunk order), `Tree`, JSON import/export, links',
    mayImport: ['errors', 'filter', 'protocol', 'context'],
  },
  {
    folder: 'callbacks',
    what: 'invoking author callbacks (events, error wrapping, time limits) and validating their outputs',
    mayImport: ['errors', 'filter', 'protocol', 'tree'],
  },
  {
    folder: 'explore',
    what: 'the explore step: `ChunkIndex`, chunk masks, chunk searches, threshold calibration, `explore.ts`',
    mayImport: ['errors', 'filter', 'protocol', 'embedding', 'vector', 'context', 'tree'],
  },
  {
    folder: 'ingest',
    what: 'documents split into `forRag` chunks',
    mayImport: ['errors', 'protocol', 'embedding', 'vector', 'files', 'tree'],
  },
  {
    folder: 'engine/runtime',
    what: 'what a turn runs on: `AgentRuntime`, loading it (`loadRuntime`: chunk index, packed index file, query collections), the exploration collection, packed vectors, the space fit (`SpaceFitter`, the fit plan) and `RuntimeHost`, which loads, fits and swaps it',
    mayImport: [
      'errors',
      'filter',
      'protocol',
      'embedding',
      'model',
      'vector',
      'files',
      'tree',
      'explore',
      'ingest',
    ],
  },
  {
    folder: 'engine/turn',
    what: '`runTurn`, `Turn` (the one owner of a turn), `TurnHandoff` (the handoff within a turn), `StepContext`, the step loop, start position, the commit, `execute/`',
    mayImport: [
      'errors',
      'filter',
      'protocol',
      'embedding',
      'model',
      'session',
      'vector',
      'files',
      'memory',
      'context',
      'tree',
      'callbacks',
      'explore',
      'privacy',
      'analytics',
      'handoff',
      'channel',
      'engine/runtime',
    ],
  },
  {
    folder: 'engine/agent',
    what: "`TreeAgent`, the facade: queues turns, forwards queries (route, nearest nodes, thresholds) and operators' handoff actions",
    mayImport: [
      'errors',
      'filter',
      'protocol',
      'embedding',
      'model',
      'session',
      'vector',
      'files',
      'context',
      'tree',
      'explore',
      'privacy',
      'handoff',
      'engine/runtime',
      'engine/turn',
    ],
  },
  {
    folder: 'evaluation',
    what: 'routing evaluation and threshold suggestions',
    mayImport: ['errors', 'protocol', 'explore', 'tree', 'engine/agent'],
  },
  {
    folder: 'lint',
    what: 'tree lint (and the routing thresholds it reports)',
    mayImport: ['errors', 'protocol', 'embedding', 'explore', 'tree'],
  },
  {
    folder: 'test',
    what: 'published as `@treeagent/core/test`: `ScriptedLanguageModel`, `ExactEmbedder`, `rejection`',
    mayImport: ['errors', 'protocol', 'embedding', 'model'],
  },
  {
    folder: 'conformance',
    what: "published as `@treeagent/core/conformance`: the suites every store runs, and Qdrant's behaviour corpus (`qdrant-corpus/`)",
    mayImport: [
      'errors',
      'filter',
      'protocol',
      'embedding',
      'model',
      'session',
      'vector',
      'files',
      'test',
      'analytics',
      'handoff',
      'knowledge',
      'tree',
      'engine/runtime',
      'channel',
      'versions',
    ],
  },
  {
    folder: 'adapter',
    what: 'published as `@treeagent/core/adapter`: the contracts adapters implement and the helpers beside them',
    mayImport: [
      'errors',
      'filter',
      'protocol',
      'embedding',
      'model',
      'session',
      'vector',
      'files',
      'analytics',
      'handoff',
      'knowledge',
      'engine/runtime',
      'engine/turn',
      'engine/agent',
      'channel',
      'versions',
    ],
  },
];

/** The contracts: each may import only these folders (the protocol and errors). */
export const CONTRACTS: readonly string[] = [
  'embedding/embedder.ts',
  'model/language-model.ts',
  'session/session-store.ts',
  'vector/vector-store.ts',
  'files/file-store.ts',
  'analytics/analytics-store.ts',
  'protocol/handoff-outbox.ts',
  'handoff/handoff-queue.ts',
  'handoff/audit-log.ts',
  'versions/version-store.ts',
  'handoff/operator-sessions.ts',
  'handoff/event-bus.ts',
  'handoff/session-tokens.ts',
  'knowledge/source-store.ts',
];
export const CONTRACTS_MAY_IMPORT: readonly string[] = ['protocol', 'errors'];

/** One import from a source file to another, both relative to the repository root. */
export interface ImportEdge {
  from: string;
  to: string;
}

/** Whether a file is exempt from the layering: a test, a test helper, or a tool's config (`vite.config.ts`). */
export function isExempt(path: string): boolean {
  return (
    /\.(test|type-test)\.tsx?$/.test(path) ||
    /\.test-d\.ts$/.test(path) ||
    path.includes('/test-support/') ||
    /\.config\.ts$/.test(path)
  );
}

/** Every relative import (static, type-only, re-export, dynamic) of every non-test source file under `packages/`. */
export function importGraph(root: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(join(root, 'packages'))) {
    const from = relative(root, file);
    if (isExempt(from)) continue;
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const imported of info.importedFiles) {
      const specifier = imported.fileName;
      if (!specifier.startsWith('.')) {
        if (specifier.startsWith('@treeagent/')) edges.push({ from, to: specifier });
        continue;
      }
      const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
      edges.push({ from, to: relative(root, target) });
    }
  }
  return edges;
}

function sourceFiles(directory: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(directory)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(directory, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

const CORE = 'packages/core/src/';

/**
 * The layer of a core source file: its folder (`tree`), or its nested folder when the rules have a
 * layer for it (`engine/turn`: a file under `engine/turn/execute/` is in it); null for the entry
 * points at the root of `src/`.
 */
function coreFolder(path: string, layers: ReadonlySet<string>): string | null {
  if (!path.startsWith(CORE)) return null;
  const parts = path.slice(CORE.length).split('/');
  if (parts.length === 1) return null;
  for (let depth = parts.length - 1; depth > 1; depth--) {
    const folder = parts.slice(0, depth).join('/');
    if (layers.has(folder)) return folder;
  }
  return parts[0]!;
}

/** Every import that breaks a rule, as a sentence naming both files and the rule. */
export function layerViolations(edges: readonly ImportEdge[], layers = CORE_LAYERS): string[] {
  const byFolder = new Map(layers.map((layer) => [layer.folder, layer]));
  const folders = new Set(byFolder.keys());
  const problems: string[] = [];
  for (const { from, to } of edges) {
    const packageOf = (path: string) => /^packages\/([^/]+)\//.exec(path)?.[1];
    if (to.startsWith('@treeagent/')) {
      if (from.startsWith(CORE))
        problems.push(`${from} imports ${to}: @treeagent/core depends on no other package.`);
      continue;
    }
    if (packageOf(from) !== packageOf(to)) {
      problems.push(
        `${from} imports ${to}, inside another package: import it by its package name (@treeagent/…) and a published entry point.`,
      );
      continue;
    }
    const source = coreFolder(from, folders);
    const target = coreFolder(to, folders);
    if (source === null || target === null || source === target) {
      if (from.startsWith(CORE) && to.startsWith(CORE) && target === null && source !== null) {
        problems.push(`${from} imports the entry point ${to}: import the module itself.`);
      }
      continue;
    }
    const layer = byFolder.get(source);
    if (!layer) {
      problems.push(
        `${from}: core folder ${source}/ has no rule in scripts/layers.ts; add one (and rerun --write).`,
      );
      continue;
    }
    if (!byFolder.has(target)) {
      problems.push(
        `${from} imports ${to}: core folder ${target}/ has no rule in scripts/layers.ts; add one.`,
      );
      continue;
    }
    if (!layer.mayImport.includes(target)) {
      problems.push(
        `${from} imports ${to}: ${source}/ may import only ${layer.mayImport.map((f) => `${f}/`).join(', ') || 'nothing'} (scripts/layers.ts). Move the shared type down (protocol/ for the turn's types) instead of importing up.`,
      );
    }
    const relativeFrom = from.slice(CORE.length);
    if (CONTRACTS.includes(relativeFrom) && !CONTRACTS_MAY_IMPORT.includes(target)) {
      problems.push(
        `${from} is a contract and imports ${to}: contracts import only ${CONTRACTS_MAY_IMPORT.map((f) => `${f}/`).join(', ')}.`,
      );
    }
  }
  return problems;
}

/** Import cycles between files (type-only imports included), each as the files of the cycle. */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (to.startsWith('@treeagent/')) continue;
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/** Folders whose rules import each other (directly or not): the rules must describe layers. */
export function ruleCycles(layers = CORE_LAYERS): string[][] {
  return importCycles(
    layers.flatMap((layer) => layer.mayImport.map((target) => ({ from: layer.folder, to: target }))),
  );
}

/** The dependency table of docs/architecture.md, generated from the rules. */
export function dependencyTable(layers = CORE_LAYERS): string {
  const rows = layers.map(
    (layer) =>
      `| \`${layer.folder}/\` | ${layer.what} | ${layer.mayImport.map((folder) => `\`${folder}/\``).join(', ') || '—'} |`,
  );
  return ['| folder | what | may import (type imports included) |', '|---|---|---|', ...rows].join('\n');
}

export const TABLE_START =
  '<!-- layers:start (generated by `npm run layers -- --write` from scripts/layers.ts) -->';
export const TABLE_END = '<!-- layers:end -->';

/** The text between the markers of a document, or null when it has none. */
export function documentedTable(document: string): string | null {
  const start = document.indexOf(TABLE_START);
  const end = document.indexOf(TABLE_END);
  if (start < 0 || end < start) return null;
  return document.slice(start + TABLE_START.length, end).trim();
}

/** The document with its table replaced by `table`. */
export function withTable(document: string, table: string): string {
  const start = document.indexOf(TABLE_START);
  const end = document.indexOf(TABLE_END);
  return `${document.slice(0, start + TABLE_START.length)}\n${table}\n${document.slice(end)}`;
}
