import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RoutingTree, scanBestRow } from './trees.js';

/**
 * The peer of the comparisons: LangGraph, installed in `bench/node_modules` by the benchmark itself
 * (`bench/package.json`), never a dependency of the framework. Its modules are imported by name at
 * run time, so type-checking the repository does not need them installed.
 */
export const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = [
  '@langchain/langgraph',
  '@langchain/core',
  '@langchain/langgraph-checkpoint-sqlite',
] as const;

export interface Peer {
  langgraph: any;
  messages: any;
  sqlite: any;
  /** Installed version of each package. */
  versions: Record<string, string>;
  /** How long installing took in this run (0 when it was already there). */
  installMs: number;
}

let loaded: Promise<Peer> | null = null;

/** Installs the peer when `bench/node_modules` lacks it, then imports it (once per process). */
export function loadPeer(log: (line: string) => void = console.log): Promise<Peer> {
  loaded ??= (async () => {
    const installMs = installPeer(log);
    // Variables, not literals: TypeScript leaves them untyped and never looks for the packages.
    const names: string[] = [...PACKAGES, '@langchain/core/messages'];
    const [langgraph, , sqlite, messages] = await Promise.all(names.map((name) => import(name)));
    const versions: Record<string, string> = {};
    for (const name of PACKAGES) {
      versions[name] = JSON.parse(readFileSync(packageJson(name), 'utf8')).version as string;
    }
    return { langgraph, messages, sqlite, versions, installMs };
  })();
  return loaded;
}

function packageJson(name: string): string {
  return join(BENCH_DIR, 'node_modules', ...name.split('/'), 'package.json');
}

/** Installs bench/package.json's dependencies when any is missing from bench/node_modules; returns the time it took. */
export function installPeer(log: (line: string) => void): number {
  const manifest = JSON.parse(readFileSync(join(BENCH_DIR, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const needed = new Set<string>([...PACKAGES, ...Object.keys(manifest.dependencies ?? {})]);
  if ([...needed].every((name) => existsSync(packageJson(name)))) return 0;
  const command = existsSync(join(BENCH_DIR, 'package-lock.json')) ? 'ci' : 'install';
  log(`Installing the benchmarks' peers in bench/node_modules (npm ${command}; first run only)…`);
  const started = performance.now();
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', [command, '--no-audit', '--no-fund'], {
    cwd: BENCH_DIR,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return performance.now() - started;
}

/** `node-per-leaf`: one graph node per leaf of the tree; `one-leaf-node`: one node answering for every leaf. */
export type GraphShape = 'node-per-leaf' | 'one-leaf-node';
/** `plain`: `{ role, content }` objects with a concat reducer; `langchain`: `MessagesAnnotation` with `HumanMessage`/`AIMessage`. */
export type MessageStyle = 'plain' | 'langchain';

export interface PeerGraph {
  /** One turn of thread `threadId`: the user's `text` in, the leaf's answer out. */
  turn(threadId: string, text: string): Promise<string>;
}

/**
 * The LangGraph equivalent of a routing tree: START → router → leaf → END. The router embeds the
 * last user message with the tree's own embedder (the same precomputed vectors), scans every chunk
 * (cosine of unit vectors over the row-major matrix) and picks the leaf holding the best one.
 */
export function peerGraph(
  peer: Peer,
  routing: RoutingTree,
  options: { shape: GraphShape; style: MessageStyle; checkpointer: unknown },
): PeerGraph {
  const { Annotation, StateGraph, START, END, MessagesAnnotation } = peer.langgraph;
  const { HumanMessage, AIMessage } = peer.messages;
  const langchain = options.style === 'langchain';
  const State = Annotation.Root({
    ...(langchain
      ? MessagesAnnotation.spec
      : {
          messages: Annotation({ reducer: (a: unknown[], b: unknown[]) => a.concat(b), default: () => [] }),
        }),
    picked: Annotation(),
  });
  const { embedder, matrix, dimensions, chunkLeaf, replies } = routing;
  const answer = (leaf: number) => ({
    messages: [langchain ? new AIMessage(replies[leaf]!) : { role: 'assistant', content: replies[leaf]! }],
  });
  const graph = new StateGraph(State).addNode('router', (state: { messages: { content: string }[] }) => {
    const text = state.messages[state.messages.length - 1]!.content;
    const [vector] = embedder.embed([text]);
    return { picked: chunkLeaf[scanBestRow(matrix, dimensions, vector!)]! };
  });
  graph.addEdge(START, 'router');
  if (options.shape === 'node-per-leaf') {
    const names = replies.map((_, leaf) => `leaf${leaf}`);
    names.forEach((name, leaf) => {
      graph.addNode(name, () => answer(leaf));
      graph.addEdge(name, END);
    });
    graph.addConditionalEdges('router', (state: { picked: number }) => names[state.picked]!, names);
  } else {
    graph.addNode('leaf', (state: { picked: number }) => answer(state.picked));
    graph.addEdge('router', 'leaf');
    graph.addEdge('leaf', END);
  }
  const app = graph.compile({ checkpointer: options.checkpointer });
  return {
    async turn(threadId, text) {
      const input = langchain ? new HumanMessage(text) : { role: 'user', content: text };
      const output = await app.invoke({ messages: [input] }, { configurable: { thread_id: threadId } });
      const last = output.messages[output.messages.length - 1];
      return String(last.content);
    },
  };
}

/** LangGraph's SQLite checkpointer on `file`, configured like `openSqlite`: WAL and the same `synchronous`. */
export function sqliteSaver(peer: Peer, file: string, synchronous = 'NORMAL'): { saver: any; db: any } {
  const saver = peer.sqlite.SqliteSaver.fromConnString(file);
  saver.db.pragma('journal_mode = WAL');
  saver.db.pragma(`synchronous = ${synchronous}`);
  saver.db.pragma('busy_timeout = 5000');
  return { saver, db: saver.db };
}
