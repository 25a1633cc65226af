import type { Tree } from '../../tree/tree.js';
import type { AgentRuntime } from '../runtime/runtime.js';
import { runtimeBytes } from '../runtime/runtime-bytes.js';
import type { RuntimeHost } from '../runtime/runtime-host.js';

/** The bounds of the trees loaded besides the agent's own (`maxLoadedTrees`, `maxLoadedTreeBytes`). */
export interface LoadedTreeLimits {
  maxTrees: number;
  maxBytes: number;
}

interface Loaded {
  host: RuntimeHost;
  /** Turns running on it now: it is never unloaded under them. */
  running: number;
  /** The sessions whose last turn ran on it (in this process) and that were not deleted since. */
  sessions: Set<string>;
  /** `runtimeBytes` of its runtime once loaded; 0 before. */
  bytes: number;
}

/**
 * The runtimes of the trees sessions run on besides the agent's own (`TreeAgentOptions.sessionTrees`:
 * sessions on an earlier version, experiment variants). A tree is unloaded as soon as no session
 * uses it any more (its sessions were deleted — expired, or on request — or moved to another tree),
 * and beyond the bounds the least recently used goes first; never one a turn is running on.
 */
export class LoadedTrees {
  /** Least recently used first. */
  readonly #trees = new Map<string, Loaded>();
  readonly #hostFor: (tree: Tree) => RuntimeHost;
  readonly #limits: LoadedTreeLimits;

  constructor(hostFor: (tree: Tree) => RuntimeHost, limits: LoadedTreeLimits) {
    this.#hostFor = hostFor;
    this.#limits = limits;
  }

  /** The content hashes of the loaded trees, least recently used first. */
  list(): string[] {
    return [...this.#trees.keys()];
  }

  /** The estimated bytes of the loaded trees' runtimes (`runtimeBytes`), together. */
  bytes(): number {
    let total = 0;
    for (const loaded of this.#trees.values()) total += loaded.bytes;
    return total;
  }

  /**
   * Runs `turn` for `sessionId` on `tree`'s runtime (loading it when needed). The session now counts
   * on this tree only: another tree it leaves with no session is unloaded.
   */
  async run<T>(tree: Tree, sessionId: string, turn: (runtime: AgentRuntime) => Promise<T>): Promise<T> {
    let loaded = this.#trees.get(tree.contentHash);
    if (loaded) this.#trees.delete(tree.contentHash);
    else loaded = { host: this.#hostFor(tree), running: 0, sessions: new Set(), bytes: 0 };
    this.#trees.set(tree.contentHash, loaded);
    loaded.running++;
    loaded.sessions.add(sessionId);
    this.leave(sessionId, loaded);
    try {
      const runtime = await loaded.host.load();
      loaded.bytes = runtimeBytes(runtime);
      this.#bound();
      return await turn(runtime);
    } finally {
      loaded.running--;
      this.#unloadUnused();
      this.#bound();
    }
  }

  /** `sessionId` runs elsewhere (the agent's own tree, or `except`): no other tree counts it any more. */
  leave(sessionId: string, except?: Loaded): void {
    for (const loaded of this.#trees.values()) if (loaded !== except) loaded.sessions.delete(sessionId);
    this.#unloadUnused();
  }

  /** The sessions were deleted: the trees left with no session are unloaded. */
  forget(sessionIds: readonly string[]): void {
    for (const loaded of this.#trees.values()) for (const id of sessionIds) loaded.sessions.delete(id);
    this.#unloadUnused();
  }

  #unloadUnused(): void {
    for (const [hash, loaded] of this.#trees)
      if (loaded.running === 0 && loaded.sessions.size === 0) this.#trees.delete(hash);
  }

  /**
   * Unloads the least recently used trees while over a bound, but neither the most recently used one
   * nor any a turn runs on.
   */
  #bound(): void {
    const keep = [...this.#trees.values()].at(-1);
    let bytes = this.bytes();
    for (const [hash, loaded] of this.#trees) {
      if (this.#trees.size <= this.#limits.maxTrees && bytes <= this.#limits.maxBytes) break;
      if (loaded === keep || loaded.running > 0) continue;
      this.#trees.delete(hash);
      bytes -= loaded.bytes;
    }
  }
}
